import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { formatValidationErrors, validateAtEdge } from '../common/validation-errors.js';
import { SendNotificationDto, TestNotificationDto } from './notification.dto.js';

const problems = (body: object) => formatValidationErrors(validateSync(plainToInstance(TestNotificationDto, body), { forbidUnknownValues: false }));

describe('TestNotificationDto (the send’s content fields, all optional, plus a token)', () => {
  it('accepts a token alone', () => {
    expect(problems({ token: 'tok-1' })).toEqual([]);
  });

  it('requires a token that is not blank', () => {
    expect(problems({})).toEqual([expect.stringMatching(/^token must be a string|^token is required/)]);
    expect(problems({ token: ' ' })).toEqual(['token must not be empty or blank']);
  });

  it('checks the content fields with the send’s rules when they are given', () => {
    expect(problems({ token: 't', title: ' ' })).toEqual(['title must not be empty']);
    expect(problems({ token: 't', body: 'x'.repeat(4001) })).toEqual(['body must be at most 4000 characters']);
    expect(problems({ token: 't', journeySlug: 'x'.repeat(257) })).toEqual(['journeySlug must be at most 256 characters']);
    expect(problems({ token: 't', data: 'text' })).toEqual(['data must be an object of string values']);
  });
});

describe('SendNotificationDto, checked as the gateway checks it', () => {
  const edge = (body: object) => validateAtEdge(SendNotificationDto, { title: 't', body: 'b', ...body }).errors;

  it('names what a value should be before its size or form, whatever order the rules are written in', () => {
    expect(edge({ userIds: 'demo_user_1' })).toEqual(['userIds must be an array of user ids']);
    expect(edge({ userIds: 5 })).toEqual(['userIds must be an array of user ids']);
    expect(edge({ title: 5 })).toEqual(['title must be a string']);
    expect(edge({ title: undefined })).toEqual(['title is required']);
  });

  it('names the rule a value of the right type breaks', () => {
    expect(edge({ userIds: [] })).toEqual(['userIds must name at least 1 user']);
    expect(edge({ userIds: ['a', ' '] })).toEqual(['userIds must not contain empty user ids']);
    expect(edge({ title: 'x'.repeat(1001) })).toEqual(['title must be at most 1000 characters']);
  });
});
