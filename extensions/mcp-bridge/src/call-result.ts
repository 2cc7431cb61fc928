import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Attachment, type ContentAnnotations, fail, ok, type ToolResult } from '@quiver/types';
import { cleanResultText } from './clean-text.js';

type ContentBlock = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

/** Who a block is for and how much it matters, as the server said, for clients that filter by it. */
function annotationsOf(block: { annotations?: unknown }): ContentAnnotations | undefined {
  const raw = block.annotations;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { audience, priority, lastModified } = raw as Record<string, unknown>;
  const annotations: ContentAnnotations = {};
  if (Array.isArray(audience))
    annotations.audience = audience.filter((role) => role === 'user' || role === 'assistant');
  if (typeof priority === 'number') annotations.priority = priority;
  if (typeof lastModified === 'string') annotations.lastModified = lastModified;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

function renderBlock(block: ContentBlock, attachments: Attachment[]): string {
  const annotations = annotationsOf(block);
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      attachments.push({ type: block.type, mimeType: block.mimeType, data: block.data, annotations });
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, attached]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string') {
        attachments.push({
          type: 'resource',
          uri: resource.uri,
          mimeType: resource.mimeType,
          text: resource.text,
          annotations,
        });
        return `[resource ${resource.uri}]\n${resource.text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      attachments.push({
        type: 'resource',
        uri: resource.uri,
        mimeType: resource.mimeType,
        data: blob,
        annotations,
      });
      return `[resource ${resource.uri} (${resource.mimeType ?? 'binary'}, ${base64Bytes(blob)} bytes, attached)]`;
    }
    case 'resource_link':
      attachments.push({
        type: 'resource',
        uri: block.uri,
        name: block.name,
        title: block.title,
        mimeType: block.mimeType,
        description: block.description,
        size: typeof block.size === 'number' ? block.size : undefined,
        annotations,
      });
      return `[resource link ${block.name}: ${block.uri}${block.description ? ` (${block.description})` : ''}]`;
    default:
      return `[unsupported content of type ${(block as { type: string }).type}]`;
  }
}

function withoutUndefined(attachment: Attachment): Attachment {
  return Object.fromEntries(
    Object.entries(attachment).filter(([, value]) => value !== undefined),
  ) as Attachment;
}

/**
 * The annotations of the result's text, which becomes one value: kept when every text block
 * carries the same ones, since one value cannot say that only part of it is for the user.
 */
function textAnnotations(content: readonly ContentBlock[]): ContentAnnotations | undefined {
  let shared: ContentAnnotations | undefined;
  let key: string | undefined;
  for (const block of content) {
    if (block.type !== 'text') continue;
    const annotations = annotationsOf(block);
    const blockKey = annotations === undefined ? '' : JSON.stringify(annotations);
    if (key === undefined) {
      key = blockKey;
      shared = annotations;
    } else if (key !== blockKey) return undefined;
  }
  return shared;
}

/** An MCP `tools/call` result as a Quiver result: text as the value, media as attachments. */
export function toToolResult(result: CallToolResult): ToolResult {
  const attachments: Attachment[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  const value = cleanResultText(content.map((block) => renderBlock(block, attachments)).join('\n'));
  const structured = result.structuredContent ?? undefined;
  if (result.isError === true) {
    return fail(
      'execution_failed',
      value === '' ? 'the MCP tool reported an error without a message' : value,
      structured,
    );
  }
  const annotations = textAnnotations(content);
  return ok(value, {
    structured,
    attachments: attachments.map(withoutUndefined),
    ...(annotations === undefined ? {} : { annotations }),
  });
}
