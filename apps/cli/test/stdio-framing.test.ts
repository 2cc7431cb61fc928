import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ContentLengthFramer, type FrameItem } from '../src/stdio/content-length-framer.js';
import { parseMaxInFlight } from '../src/stdio/in-flight-requests.js';
import { jsonNestsDeeperThan } from '../src/stdio/json-depth.js';
import { leadingRequestId } from '../src/stdio/leading-request-id.js';
import { LineFramer, type LineItem } from '../src/stdio/line-framer.js';
import { parseMessageSize } from '../src/stdio/message-size.js';
import { PacedInput } from '../src/stdio/paced-input.js';

/** Feeds `input` in pieces of `size` bytes and collects every item. */
function frames<T>(
  framer: { push(chunk: Buffer): void; next(): T | undefined },
  input: string,
  size: number,
): T[] {
  const bytes = Buffer.from(input);
  const items: T[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    framer.push(bytes.subarray(at, at + size));
    for (let item = framer.next(); item !== undefined; item = framer.next()) items.push(item);
  }
  return items;
}

const describeFrame = (item: FrameItem) =>
  item.kind === 'body'
    ? item.body.toString()
    : item.kind === 'oversize'
      ? `oversize ${item.size}`
      : `framing: ${item.problem}`;
const describeLine = (item: LineItem) =>
  item.kind === 'line' ? item.text.toString() : `oversize ${item.size}`;
const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('reading bounded messages from a byte stream', () => {
  it('measures how deeply JSON nests, not counting brackets inside strings', () => {
    expect(jsonNestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":"${'['.repeat(50)}\\"{{{"}`, 3)).toBe(false);
    expect(jsonNestsDeeperThan(Buffer.from(`${'['.repeat(1001)}${']'.repeat(1001)}`))).toBe(true);
    // Exactly at the limit, as short as it can be, and one level over it, unclosed.
    expect(jsonNestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[', 3)).toBe(true);
    expect(jsonNestsDeeperThan(Buffer.from('{'.repeat(1001)))).toBe(true);
    expect(jsonNestsDeeperThan('{'.repeat(1000))).toBe(false);
  });

  it('refuses a header block with two Content-Length headers that disagree, and reads on at the next frame', () => {
    const input = `Content-Length: 2\r\nContent-Length: 400\r\n\r\n{}${frame('{"next":1}')}`;
    for (const size of [1, 5, 4096]) {
      expect(
        frames(new ContentLengthFramer(1000), input, size).map(describeFrame),
        `chunks of ${size}`,
      ).toEqual(['framing: two Content-Length headers that disagree ("2" and "400")', '{"next":1}']);
    }
    // The same length twice is one length.
    expect(
      frames(new ContentLengthFramer(1000), 'Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}', 64).map(
        describeFrame,
      ),
    ).toEqual(['{}']);
  });

  it('cuts Content-Length frames the same way whatever the chunk sizes, skipping bodies over the limit', () => {
    const input = `${frame('{"a":1}')}${frame('x'.repeat(100))}Content-Type: text/plain\r\n\r\n{"lost":true}${frame('{"b":2}')}${frame('{"c":3}')}`;
    for (const size of [1, 2, 3, 7, 64, 4096]) {
      const items = frames(new ContentLengthFramer(50), input, size).map(describeFrame);
      expect(items, `chunks of ${size}`).toEqual([
        '{"a":1}',
        'oversize 100',
        expect.stringMatching(/^framing: a header block without Content-Length \(it had "Content-Type"\)/),
        '{"b":2}',
        '{"c":3}',
      ]);
    }
  });

  it('reports a header block that never ends and reads the next frame', () => {
    const items = frames(
      new ContentLengthFramer(1024),
      `X-Junk: ${'y'.repeat(9000)}${frame('{"d":4}')}`,
      512,
    );
    expect(items.map(describeFrame)).toEqual([
      expect.stringMatching(/^framing: a header block longer than 8192 bytes/),
      '{"d":4}',
    ]);
  });

  it('cuts lines the same way whatever the chunk sizes, skipping lines over the limit to their newline', () => {
    const input = `{"a":1}\n${'z'.repeat(200)}\n\n{"b":2}\r\n`;
    for (const size of [1, 5, 64, 4096])
      expect(frames(new LineFramer(50), input, size).map(describeLine), `chunks of ${size}`).toEqual([
        '{"a":1}',
        'oversize 200',
        '',
        '{"b":2}\r',
      ]);
  });

  it('finds the id of a request from its first bytes only at the top level', () => {
    expect(leadingRequestId(Buffer.from('{"jsonrpc":"2.0","id":42,"method":"x","params":{"p":"'))).toBe(42);
    expect(leadingRequestId(Buffer.from('{"params":{"id":7,"s":"\\"id\\":8"},"id":"top","method":"x"'))).toBe(
      'top',
    );
    expect(leadingRequestId(Buffer.from('{"method":"x","params":{"padding":"aaaa'))).toBeNull();
    expect(leadingRequestId(Buffer.from('{"jsonrpc":"2.0","id":12'))).toBeNull();
    expect(leadingRequestId(Buffer.from('[{"id":1}]'))).toBeNull();
  });

  it('reads sizes with units and refuses sizes out of range', () => {
    expect(parseMessageSize(undefined)).toBe(16 * 1024 * 1024);
    expect(parseMessageSize('64MiB')).toBe(64 * 1024 * 1024);
    expect(parseMessageSize('512k')).toBe(512 * 1024);
    expect(parseMessageSize('2048')).toBe(2048);
    expect(() => parseMessageSize('10')).toThrow(/from 1KiB to 1GiB/);
    expect(() => parseMessageSize('lots')).toThrow(/--max-message-size/);
  });

  it('reads --max-in-flight as a whole number and refuses anything else, saying what to pass', () => {
    expect(parseMaxInFlight(undefined)).toBe(64);
    expect(parseMaxInFlight('8')).toBe(8);
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(() => parseMaxInFlight(bad)).toThrow(/--max-in-flight must be a whole number from 1/);
  });
});

describe('reading paced by the output', () => {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('delivers every message in order, and none while the peer has not read its answers', async () => {
    const input = new PassThrough();
    // A peer that reads an answer only when the test lets it.
    const unread: Array<() => void> = [];
    const output = new Writable({
      highWaterMark: 4,
      write: (_chunk, _encoding, done) => {
        unread.push(done);
      },
    });
    const seen: string[] = [];
    let ended = false;
    const paced = new PacedInput({
      input,
      output,
      framer: new LineFramer(1024),
      deliver: (item) => {
        seen.push(describeLine(item));
        output.write(`answer to ${describeLine(item)}\n`);
      },
      ended: () => {
        ended = true;
      },
    });
    paced.start();
    input.write('a\n');
    await turn();
    expect(seen).toEqual(['a']);
    // Came alone, after an answer the peer has not read: it waits.
    input.write('b\n');
    await turn();
    expect(seen).toEqual(['a']);
    unread.shift()?.();
    await turn();
    expect(seen).toEqual(['a', 'b']);
    // Several in one chunk: one at a time, each after the previous answer was read.
    input.write('c\nd\ne');
    input.end('\n');
    await turn();
    expect(seen).toEqual(['a', 'b']);
    for (const expected of [
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'd'],
      ['a', 'b', 'c', 'd', 'e'],
    ]) {
      unread.shift()?.();
      await turn();
      expect(seen).toEqual(expected);
    }
    unread.shift()?.();
    await turn();
    expect(ended).toBe(true);
  });

  it('delivers a quick succession of messages to a peer that reads its answers, in order, each once', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const seen: string[] = [];
    const paced = new PacedInput({
      input,
      output,
      framer: new LineFramer(1024),
      deliver: (item) => {
        seen.push(describeLine(item));
      },
      ended: () => {},
    });
    paced.start();
    const sent: string[] = [];
    for (let message = 0; message < 200; message++) {
      sent.push(`m${message}`);
      // Alone, in pairs and split across writes.
      if (message % 3 === 0) input.write(`m${message}\n`);
      else if (message % 3 === 1) input.write(`m${message}\nm`);
      else input.write(`${message}\n`);
      if (message % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await turn();
    expect(seen).toEqual(sent);
  });
});
