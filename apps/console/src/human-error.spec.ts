import { describe, expect, it } from '@jest/globals';
import { ApiError } from './api-error.js';
import { humanError, sentence } from './human-error.js';

describe('humanError: API errors as sentences for people', () => {
  it('never shows a bare status code, and words a lost session with a way to sign in again', () => {
    for (const status of [0, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503]) {
      const h = humanError(new ApiError(status, 'something'));
      expect(`${h.title} ${h.detail ?? ''}`).not.toMatch(/\b(Error|HTTP)\s*\d{3}\b|\b\d{3}\b/);
    }
    expect(humanError(new ApiError(401, 'Unauthorized'))).toEqual({ title: 'Your session has ended.', detail: expect.stringContaining('Sign in again'), signIn: true });
  });

  it('keeps the API’s reason, which names the field, as a sentence', () => {
    expect(humanError(new ApiError(400, 'no WhatsApp sender of this bot has a wabaId'))).toEqual({
      title: 'That could not be done.',
      detail: 'No WhatsApp sender of this bot has a wabaId.',
    });
    expect(humanError(new ApiError(409, 'number +15550002222 is already a sender')).detail).toBe('Number +15550002222 is already a sender.');
  });

  it('on the sign-in form a 401 is the wrong password, not a lost session', () => {
    expect(humanError(new ApiError(401, 'Invalid e-mail or password'), true)).toEqual({ title: 'Invalid e-mail or password.' });
  });

  it('keeps a field name that starts the reason as the API spells it', () => {
    expect(sentence('quickReplies must contain at most 3 quick replies')).toBe('quickReplies must contain at most 3 quick replies.');
    expect(sentence('quickReplies[0].title must be at most 20 characters')).toBe('quickReplies[0].title must be at most 20 characters.');
    expect(sentence('image.url must be an http(s) URL')).toBe('image.url must be an http(s) URL.');
    expect(sentence('number +15550002222 is already a sender')).toBe('Number +15550002222 is already a sender.');
    expect(sentence('no WhatsApp sender of this bot has a wabaId')).toBe('No WhatsApp sender of this bot has a wabaId.');
  });

  it('ends a clause with a full stop once', () => {
    expect(sentence('done.')).toBe('Done.');
    expect(sentence('is it?')).toBe('Is it?');
    expect(sentence('')).toBe('');
  });
});
