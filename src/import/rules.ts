// The service's own rules applied to every imported account (contract sections 2, 3, 16 and 15b), before anything is
// written: what the service refuses of its players it refuses of a source too. A row that fails is left out and
// reported (a profile with a name the rule or the reserved names refuse, a skin whose name holds control characters,
// a hardware record past the LaunchServer API's bounds, a Discord link without a proper name); an account that is
// left with no way to log in is left out whole. A mail address that fails the mail rule is not kept: the account
// comes in without one, as Drasl's and AuthMe's do, and its player adds one (docs/decisions.md).
import { isPlausibleMail, isReservedUsername } from '../accounts/rules.ts';
import { discordAvatarUrl, isDiscordId } from '../discord/client.ts';
import { isPlayerName, type PlayerNameRule } from '../minecraft/player-names.ts';
import type { Counted, ImportedAccount, ImportedHardware, LeftOut } from './model.ts';
import { unusablePassword } from './passwords.ts';

/** Control characters (NUL among them, which PostgreSQL refuses in text): no name or address of the service has one. */
const CONTROL = /\p{Cc}/u;
export const hasControlCharacters = (text: string) => CONTROL.test(text);
/** The longest hardware identifier the LaunchServer API takes (src/gravit/routes.ts): longer ones are no machine's. */
const MAX_HARDWARE_TEXT = 256;
/** The longest launcher key the LaunchServer API takes (8192 characters of base64). */
const MAX_HARDWARE_BYTES = 6144;
/** Discord names are at most 32 characters; the service's own Discord login takes up to 64. */
const MAX_DISCORD_NAME = 64;

export interface CheckedAccount {
  /** What may come in of the account; undefined when it is left out whole. */
  account?: ImportedAccount;
  /** Why the account is left out whole. */
  refusal?: string;
  /** Report lines for the parts left out, each with the count it adds to. */
  leftOut: [LeftOut, Counted | undefined][];
}

export function checkAccount(account: ImportedAccount, nameRule: PlayerNameRule): CheckedAccount {
  const leftOut: CheckedAccount['leftOut'] = [];
  const report = (kind: LeftOut['kind'], sourceId: string, name: string, reason: string, counted?: Counted) =>
    leftOut.push([{ kind, source_id: sourceId, name, reason }, counted]);

  const profiles = account.profiles.filter((profile) => {
    const refusal = !isPlayerName(profile.name, nameRule)
      ? 'the name breaks PROFILE_NAME_RULE'
      : isReservedUsername(profile.name)
        ? 'the name is reserved: the audit log names the service and its operator so'
        : null;
    if (refusal) report('profile', profile.uuid, profile.name, refusal, 'profiles');
    return refusal === null;
  });
  if (account.profiles.length > 0 && profiles.length === 0) return { refusal: 'no profile name is allowed here', leftOut };

  let mail = account.mail?.trim() || null;
  if (mail !== null && (CONTROL.test(mail) || !isPlausibleMail(mail))) {
    if (profiles.length === 0)
      return { refusal: 'its mail address breaks the mail rule, and it has no player name to log in with', leftOut };
    report(
      'mail',
      account.key,
      account.label,
      'not one mail address by the service’s rule: the account comes in without one, logs in with its player name, and its player adds an address',
    );
    mail = null;
  }

  let password = account.password;
  if (password.includes('\0')) {
    report('password', account.key, account.label, 'the stored hash holds a NUL byte: the player resets the password');
    password = unusablePassword('a NUL byte');
  }

  const skins = account.skins.filter((skin) => {
    if (!CONTROL.test(skin.name)) return true;
    report('skin', skin.key, `${account.label}: ${skin.name}`, 'its name holds control characters', 'skins');
    return false;
  });

  let discord = account.discord ?? null;
  if (discord !== null) {
    const name = discord.username.trim();
    if (!isDiscordId(discord.id) || name === '' || name.length > MAX_DISCORD_NAME || CONTROL.test(name)) {
      report('discord', account.key, account.label, 'not a Discord account as Discord names them: the link is not kept');
      discord = null;
    } else discord = { id: discord.id, username: name, avatar: discordAvatarUrl(discord.id, discord.avatar) };
  }

  let hardware = account.hardware ?? null;
  if (hardware !== null && !isMachine(hardware)) {
    report('hardware', hardware.key, account.label, 'identifiers longer than a LaunchServer sends, or with control characters', 'hardware');
    hardware = null;
  }

  return { account: { ...account, mail, password, profiles, skins, discord, hardware }, leftOut };
}

/** Whether a hardware record is one a LaunchServer could have reported (the bounds of its API). */
function isMachine(hardware: ImportedHardware): boolean {
  const texts = [hardware.hwdiskid, hardware.baseboardserialnumber, hardware.graphiccard];
  const bytes = [hardware.publickey, hardware.displayid];
  return (
    texts.every((text) => text === null || text === undefined || (text.length <= MAX_HARDWARE_TEXT && !CONTROL.test(text))) &&
    bytes.every((value) => value === null || value === undefined || value.length <= MAX_HARDWARE_BYTES)
  );
}
