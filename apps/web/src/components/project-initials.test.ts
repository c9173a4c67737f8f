import { describe, expect, it } from 'vitest';
import { distinctAvatarTexts, projectInitials } from './project-initials';

describe('project initials', () => {
  it('draws initials', () => {
    expect(projectInitials('Demo Contract')).toBe('DC');
    expect(projectInitials('acme')).toBe('AC');
    expect(projectInitials('One Two Three Four')).toBe('OTT');
    expect(projectInitials('  ')).toBe('?');
  });
});

describe('distinct avatar texts', () => {
  it('keeps the first initials and finds others for the projects after it', () => {
    expect(
      distinctAvatarTexts([
        { name: 'Fourth Project' },
        { name: 'Fifth Project' },
        { name: 'Fresh Produce' },
        { name: 'Acme' },
        { name: 'acme' },
      ]),
    ).toEqual(['FP', 'FIP', 'FRP', 'AC', 'AM']);
  });

  it('never changes an alias, and steers initials away from it', () => {
    expect(distinctAvatarTexts([{ name: 'Demo Contract' }, { name: 'X', alias: 'DC' }])).toEqual([
      'DEC',
      'DC',
    ]);
  });

  it('numbers the initials when every other spelling is taken', () => {
    expect(distinctAvatarTexts([{ name: 'A' }, { name: 'A' }, { name: 'a' }])).toEqual([
      'A',
      'A2',
      'A3',
    ]);
  });
});
