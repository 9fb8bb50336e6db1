// The launcher document of interface.md 4.3 and contract section 7 (no envelope; `{}` for a player without
// textures and for an identifier nothing has): type, response schema and example.
import { BASE, CAPE_DIGEST, PLAYER_UUID, SKIN_DIGEST } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

interface TextureLink {
  url: string;
  /** SHA-256 of the texture file, hexadecimal. */
  digest: string;
  /** The same as `digest`: some GravitLauncher LaunchServers read `hash`, others `digest` (docs/decisions.md). */
  hash: string;
}

export interface LauncherDocument {
  SKIN?: TextureLink & { metadata?: { model: 'slim' } };
  CAPE?: TextureLink;
}

const textureLink = {
  url: { type: 'string', description: 'where the texture file is' },
  digest: { type: 'string', description: 'SHA-256 of the file, hexadecimal' },
  hash: { type: 'string', description: 'the same as digest (read by some GravitLauncher versions)' },
};

export const LAUNCHER_DOCUMENT_SCHEMA = recordSchema<LauncherDocument>(
  {
    SKIN: recordSchema<NonNullable<LauncherDocument['SKIN']>>(
      {
        ...textureLink,
        metadata: { type: 'object', description: 'only for slim skins', properties: { model: { type: 'string', enum: ['slim'] } } },
      },
      { metadata: true },
    ),
    CAPE: { ...recordSchema<TextureLink>(textureLink), description: 'only when the player wears a cape' },
  },
  { SKIN: true, CAPE: true },
);

export const LAUNCHER_DOCUMENT_EXAMPLE: LauncherDocument = {
  SKIN: { url: `${BASE}/api/skin/cloak/${PLAYER_UUID}`, digest: SKIN_DIGEST, hash: SKIN_DIGEST, metadata: { model: 'slim' } },
  CAPE: { url: `${BASE}/api/skin/standart/cape/${PLAYER_UUID}`, digest: CAPE_DIGEST, hash: CAPE_DIGEST },
};
