import { expect, it } from 'vitest';
import { apiReport } from '../../../scripts/api-report.mjs';

it('exports exactly the public API recorded in api-report.json', async () => {
  const { actual, expected, message } = await apiReport(new URL('..', import.meta.url));
  expect(actual, message).toEqual(expected);
});
