import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { adminDelete, adminGet, adminPost, adminPut, failureOf, NO_ACCESS, UNREACHABLE, whenSessionEnds, withQuery } from './admin-api';

describe('the admin request helper', () => {
  it('sends changes as JSON with the same-origin cookie, and reads the answer', async () => {
    const api = stubApi({ 'POST /api/admin/orders/ord-7/refund': () => jsonResponse(200, { order: { id: 'ord-7' } }) });
    await expect(adminPost('/api/admin/orders/ord-7/refund', { amount: 500, reason: 'Goodwill' })).resolves.toEqual({ order: { id: 'ord-7' } });
    const [call] = api.requests;
    expect(call?.init?.method).toBe('POST');
    expect(call?.init?.credentials).toBe('same-origin');
    expect(new Headers(call?.init?.headers).get('content-type')).toBe('application/json');
    expect(call?.body).toEqual({ amount: 500, reason: 'Goodwill' });
  });

  it('sends `{}` as JSON for a command without fields, and takes a 204', async () => {
    const api = stubApi({ 'POST /api/admin/sign-out': () => new Response(null, { status: 204 }) });
    await expect(adminPost('/api/admin/sign-out')).resolves.toBeNull();
    expect(api.requests[0]?.body).toEqual({});
    expect(new Headers(api.requests[0]?.init?.headers).get('content-type')).toBe('application/json');
  });

  it('sends a DELETE without a body, and takes its 204', async () => {
    const api = stubApi({ 'DELETE /api/admin/content/page/about/draft': () => new Response(null, { status: 204 }) });
    await expect(adminDelete('/api/admin/content/page/about/draft')).resolves.toBeNull();
    expect(api.requests[0]?.init?.method).toBe('DELETE');
    expect(api.requests[0]?.init?.body).toBeUndefined();
    expect(api.requests[0]?.init?.credentials).toBe('same-origin');
  });

  it('puts the error envelope’s message and fields into the ApiError', async () => {
    stubApi({ 'PUT /api/admin/sessions/ses-1': () => jsonResponse(409, { error: { code: 'conflict', message: '14 seats are booked or held.', fields: { seats: 'At least 14' } } }) });
    const refused = await adminPut('/api/admin/sessions/ses-1', { seats: 10 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, message: '14 seats are booked or held.', fields: { seats: 'At least 14' } });
  });

  it('tells whoever listens when any call answers 401, and stops when asked', async () => {
    stubApi({ 'GET /api/admin/dashboard': () => jsonResponse(401, { error: { code: 'unauthorized', message: 'Signed out' } }) });
    const ended = vi.fn();
    const stop = whenSessionEnds(ended);
    await expect(adminGet('/api/admin/dashboard')).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
    await expect(adminGet('/api/admin/dashboard')).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('leaves blank query values out', () => {
    expect(withQuery('/api/admin/orders', { q: 'amara', status: '', course: undefined, date: '2026-12-15' })).toBe('/api/admin/orders?q=amara&date=2026-12-15');
    expect(withQuery('/api/admin/orders', { q: '' })).toBe('/api/admin/orders');
    expect(withQuery('/api/admin/audit?entity=order', { before: '41' })).toBe('/api/admin/audit?entity=order&before=41');
  });

  it('says a 403 as the refusal, other refusals in the server’s words, and a network failure as such', () => {
    expect(failureOf(new ApiError('Forbidden', 403))).toBe(NO_ACCESS);
    expect(failureOf(new ApiError('The refund is more than was paid.', 422))).toBe('The refund is more than was paid.');
    expect(failureOf(new TypeError('Failed to fetch'))).toBe(UNREACHABLE);
  });
});
