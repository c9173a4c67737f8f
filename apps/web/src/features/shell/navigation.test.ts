import { describe, expect, it } from 'vitest';
import { loginRedirect, routePrefix, safeNext, unseenBadge } from './navigation';

describe('navigation helpers', () => {
  it('caps the unseen badge at 9+ and hides it at zero', () => {
    expect(unseenBadge(0)).toBeNull();
    expect(unseenBadge(1)).toBe('1');
    expect(unseenBadge(9)).toBe('9');
    expect(unseenBadge(10)).toBe('9+');
    expect(unseenBadge(250)).toBe('9+');
  });

  it('sends to log in with the current path as next', () => {
    expect(loginRedirect('/profile')).toBe('/login?next=%2Fprofile');
    expect(loginRedirect('/inbox/abc?x=1')).toBe('/login?next=%2Finbox%2Fabc%3Fx%3D1');
  });

  it('follows next only within the app', () => {
    expect(safeNext(null)).toBe('/');
    expect(safeNext('/sent/abc')).toBe('/sent/abc');
    expect(safeNext('https://evil.example/')).toBe('/');
    expect(safeNext('//evil.example/')).toBe('/');
    expect(safeNext('/\\evil.example/')).toBe('/');
  });

  it('keeps the /branding prefix for links on branded pages', () => {
    expect(routePrefix('/branding/inbox')).toBe('/branding');
    expect(routePrefix('/branding')).toBe('/branding');
    expect(routePrefix('/brandingx/inbox')).toBe('');
    expect(routePrefix('/inbox')).toBe('');
  });
});
