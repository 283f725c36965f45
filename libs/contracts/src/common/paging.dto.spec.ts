import { AuditQueryDto } from '../console/administration.dto.js';
import { DeviceListQueryDto } from '../console/devices.dto.js';
import { MessageLogQueryDto } from '../console/message-log.dto.js';
import { validateAtEdge } from './validation-errors.js';

// As the gateway checks a query: unknown fields refused, one message per bad field.
const problems = (dto: new () => object, query: object) => validateAtEdge(dto, query).errors;

describe('the paging fields shared by list queries', () => {
  it.each([AuditQueryDto, MessageLogQueryDto])('%p takes a time range, a cursor and a limit, each checked', (dto) => {
    expect(problems(dto, {})).toEqual([]);
    expect(problems(dto, { since: '2026-11-01T00:00:00Z', until: '2026-11-02T00:00:00Z', cursor: 'abc_-1', limit: '100' })).toEqual([]);
    expect(problems(dto, { since: 'yesterday' })).toEqual(['since must be an ISO 8601 date-time']);
    expect(problems(dto, { until: '2026-13-01' })).toEqual(['until must be an ISO 8601 date-time']);
    expect(problems(dto, { cursor: 'a b' })).toEqual(['cursor must be a cursor from a previous answer']);
    expect(problems(dto, { cursor: 'a'.repeat(201) })).toEqual(['cursor must be at most 200 characters']);
    for (const limit of ['0', '101', '1.5', '-1', 'ten']) expect(problems(dto, { limit })).toEqual(['limit must be an integer from 1 to 100']);
  });

  it('devices take the same limit, with their own cursor (a device id)', () => {
    expect(problems(DeviceListQueryDto, { cursor: '0b8a3f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', limit: '1' })).toEqual([]);
    expect(problems(DeviceListQueryDto, { limit: '101' })).toEqual(['limit must be an integer from 1 to 100']);
    expect(problems(DeviceListQueryDto, { since: '2026-11-01T00:00:00Z' })).toEqual(['property since should not exist']);
  });
});
