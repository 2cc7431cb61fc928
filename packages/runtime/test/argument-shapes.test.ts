import { describe, expect, it } from 'vitest';
import { argumentShape, recordedEvent } from '../src/log/argument-shapes.js';

describe('argument shapes for the session log', () => {
  it('keeps keys and value types of nested objects and arrays, and no value', () => {
    const args = {
      command: 'deploy --token s3cr3t',
      retries: 3,
      dryRun: false,
      env: { API_KEY: 's3cr3t', REGION: null },
      files: ['a.txt', 'b.txt', 7, { path: 's3cr3t.pem' }],
    };
    const shape = argumentShape(args);
    expect(shape).toEqual({
      command: 'string',
      retries: 'number',
      dryRun: 'boolean',
      env: { API_KEY: 'string', REGION: 'null' },
      files: ['string', 'number', { path: 'string' }],
    });
    expect(JSON.stringify(shape)).not.toContain('s3cr3t');
  });

  it('stops at a bounded depth and key count instead of copying a huge argument', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let level = 0; level < 20; level += 1) deep = { inner: deep };
    expect(JSON.stringify(argumentShape(deep))).toContain('"object"');
    const wide = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`k${index}`, index]));
    const shape = argumentShape(wide) as Record<string, unknown>;
    expect(Object.keys(shape)).toHaveLength(101);
    expect(shape['…']).toBe('50 more keys');
  });

  it('leaves events alone when the personality records arguments in full', () => {
    const event = {
      type: 'tool.execution_start' as const,
      id: 'e1',
      sessionId: 's',
      timestamp: 0,
      callId: 'c1',
      toolName: 'terminal',
      arguments: { command: 'echo s3cr3t' },
      turn: 0,
    };
    expect(recordedEvent(event, 'full')).toBe(event);
    expect(recordedEvent(event, 'shapes')).toEqual({ ...event, arguments: { command: 'string' } });
  });
});
