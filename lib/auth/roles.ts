import { Role } from '../db/generated/enums';

export { Role };
export const ROLES = [Role.ADMIN, Role.CURATOR, Role.ANNOTATOR, Role.RATER] as const;

/**
 * What each role may do. Roles are capabilities, not a ladder: a rater only rates, an annotator
 * authors queries, a curator runs knowledge bases, campaigns and studies, an admin does all of it.
 */
const PERMISSIONS = {
  'kb:browse': [Role.ADMIN, Role.CURATOR, Role.ANNOTATOR, Role.RATER],
  'kb:manage': [Role.ADMIN, Role.CURATOR],
  'queries:manage': [Role.ADMIN, Role.CURATOR],
  'campaigns:annotate': [Role.ADMIN, Role.CURATOR, Role.ANNOTATOR],
  'users:manage': [Role.ADMIN],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function parseRole(value: string): Role {
  const upper = value.trim().toUpperCase();
  const role = ROLES.find((r) => r === upper);
  if (!role) throw new Error(`Unknown role "${value}"; expected one of ${ROLES.map((r) => r.toLowerCase()).join(', ')}`);
  return role;
}
