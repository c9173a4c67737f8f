import { describe, expect, it } from 'vitest';
import { projectInitials } from './project-initials';

describe('project initials', () => {
  it('draws initials', () => {
    expect(projectInitials('Demo Contract')).toBe('DC');
    expect(projectInitials('acme')).toBe('AC');
    expect(projectInitials('One Two Three Four')).toBe('OTT');
    expect(projectInitials('  ')).toBe('?');
  });
});
