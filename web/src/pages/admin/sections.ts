// The console's sections, in the order of its tabs, with the level each needs to be shown: the one list of them (the
// console's tabs and views follow it, and so do the browser tests; each has a name in admin.json's `tabs`).
// Imports nothing but the levels, so that the tests can read it too.
import { LEVELS } from '../../../../src/shared/levels.ts';

export const SECTIONS = [
  { id: 'dashboard', level: LEVELS.moderator },
  { id: 'users', level: LEVELS.moderator },
  { id: 'skins', level: LEVELS.moderator },
  { id: 'capes', level: LEVELS.moderator },
  { id: 'reports', level: LEVELS.moderator },
  { id: 'hardware', level: LEVELS.moderator },
  { id: 'registration', level: LEVELS.moderator },
  { id: 'audit', level: LEVELS.moderator },
  { id: 'clients', level: LEVELS.moderator },
  { id: 'servers', level: LEVELS.admin },
  { id: 'mail', level: LEVELS.owner },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
