import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Attachment, ToolResult } from '@quiver/types';
import { isStructuredConsistent } from './structured-content.js';

type ContentBlock = CallToolResult['content'][number];

export interface CallToolResultOptions {
  /** The tool declares an `outputSchema`: its structured part is its result, so it is sent. */
  declaresOutputSchema?: boolean;
}

/**
 * A Quiver result as an MCP `tools/call` result: the value as text, attachments as image, audio
 * or resource content, each with its annotations, and links with what their server said of them.
 * `structuredContent` is sent only when a client that reads nothing else loses nothing (see
 * structured-content.ts). Failures keep their code in the text so clients can
 * branch on it.
 */
export function toCallToolResult(result: ToolResult, options: CallToolResultOptions = {}): CallToolResult {
  if (!result.ok) {
    const text = `[${result.code}] ${result.error}`;
    const failure: CallToolResult = { content: [{ type: 'text', text }], isError: true };
    if (isStructuredConsistent(result.structured, result.error, options))
      failure.structuredContent = result.structured;
    return failure;
  }
  const content: ContentBlock[] = [
    result.annotations
      ? { type: 'text', text: result.value, annotations: result.annotations }
      : { type: 'text', text: result.value },
  ];
  for (const [index, attachment] of (result.attachments ?? []).entries()) {
    const block = attachmentContent(attachment, index);
    if (block)
      content.push(attachment.annotations ? { ...block, annotations: attachment.annotations } : block);
  }
  const success: CallToolResult = { content };
  if (isStructuredConsistent(result.structured, result.value, options))
    success.structuredContent = result.structured;
  return success;
}

function attachmentContent(attachment: Attachment, index: number): ContentBlock | undefined {
  const mimeType = attachment.mimeType ?? defaultMimeType(attachment.type);
  if ((attachment.type === 'image' || attachment.type === 'audio') && attachment.data !== undefined) {
    return { type: attachment.type, data: attachment.data, mimeType };
  }
  // Embedded resources need a URI; attachments without one get a stable, descriptive one.
  const uri =
    attachment.uri ?? `attachment:///${encodeURIComponent(attachment.name ?? `attachment-${index + 1}`)}`;
  if (attachment.text !== undefined)
    return { type: 'resource', resource: { uri, mimeType, text: attachment.text } };
  if (attachment.data !== undefined)
    return { type: 'resource', resource: { uri, mimeType, blob: attachment.data } };
  if (attachment.uri !== undefined) {
    return {
      type: 'resource_link',
      uri: attachment.uri,
      name: attachment.name ?? attachment.uri,
      ...(attachment.title === undefined ? {} : { title: attachment.title }),
      // A link says what it points to only when its server said so.
      ...(attachment.mimeType === undefined ? {} : { mimeType: attachment.mimeType }),
      ...(attachment.description === undefined ? {} : { description: attachment.description }),
      ...(attachment.size === undefined ? {} : { size: attachment.size }),
    };
  }
  return undefined;
}

function defaultMimeType(type: Attachment['type']): string {
  if (type === 'image') return 'image/png';
  if (type === 'audio') return 'audio/wav';
  return 'application/octet-stream';
}
