// Mojang's account services as launchers, authlib and authlib-injector call them (contract section 25): the routes
// of this folder, each path in Mojang's error shape.
import type { FastifyInstance } from 'fastify';
import { useErrorShape } from '../http/envelope.ts';
import { ACCOUNT_API_ROOT, SERVICES_ERROR_SCHEMA, SERVICES_ROOT, servicesErrorBody } from './errors.ts';
import { lookupRoutes } from './lookup-routes.ts';
import type { ProfileLookups } from './lookups.ts';
import type { MinecraftProfiles } from './profile.ts';
import { minecraftProfileRoutes } from './profile-routes.ts';

/** The paths answered in Mojang's services shape; the rest of the API root keeps the Yggdrasil shape. */
const SERVICES_SHAPED = [
  `${SERVICES_ROOT}minecraft/profile`,
  `${ACCOUNT_API_ROOT}minecraft/profile/`,
  `${ACCOUNT_API_ROOT}users/profiles/`,
  `${ACCOUNT_API_ROOT}profiles/minecraft`,
];

export async function mojangRoutes(
  app: FastifyInstance,
  services: { lookups: ProfileLookups; profiles: MinecraftProfiles },
  maxTextureBytes: number,
  /** GAME_SERVICES (contract sections 24, 25): without it the minecraft/profile routes answer 404; look-ups stay. */
  gameServices = true,
) {
  for (const prefix of SERVICES_SHAPED) useErrorShape(app, prefix, servicesErrorBody, SERVICES_ERROR_SCHEMA);
  lookupRoutes(app, services.lookups);
  if (gameServices) await minecraftProfileRoutes(app, services.profiles, maxTextureBytes);
}
