// Discord (contract section 11) behind the login: the profile's Discord part (link, unlink) and the linked account as
// the admin console shows it. The avatar is Discord's image on its CDN; where it cannot load, the initial stands in.
import { useRef, useState } from 'preact/hooks';
import { api, type UserDetail } from '../api.ts';
import { Field, Form, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { t } from '../i18n.ts';
import { useDiscordEnabled } from './discord.tsx';
import './discord.css';

/** A Discord avatar, or the name's initial when there is none or the image does not load (a firewall, Discord down). */
export function DiscordAvatar(props: { url: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const size = props.size ?? 40;
  if (!props.url || failed)
    return (
      <span class="discord-avatar initial" style={{ width: `${size}px`, height: `${size}px` }} aria-hidden="true">
        {props.name.slice(0, 1).toUpperCase()}
      </span>
    );
  return (
    <img
      class="discord-avatar"
      src={`${props.url}?size=${size <= 64 ? 64 : 128}`}
      width={size}
      height={size}
      alt={t('discord.avatarOf', { name: props.name })}
      referrerpolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

/** The linked account: avatar and name. */
function LinkedAccount(props: { discord: UserDetail['Discord'] }) {
  return (
    <p class="discord-account">
      <DiscordAvatar url={props.discord.avatar} name={props.discord.username} />
      <span>
        <strong>{props.discord.username}</strong>
        <small class="muted">{t('discord.accountId', { id: props.discord.userid })}</small>
      </span>
    </p>
  );
}

/**
 * The profile's Discord part: link one (the password, and the code when two-factor login is on, then a trip to Discord
 * and back), or show and unlink the linked one.
 */
export function DiscordLink(props: { profile: UserDetail; onChange: () => Promise<void> }) {
  const enabled = useDiscordEnabled();
  const [asking, setAsking] = useState(false);
  const [linking, setLinking] = useState(false);
  const action = useAction();
  const unlinkButton = useRef<HTMLButtonElement>(null);
  const linked = props.profile.Discord_integration;
  const twoFactor = props.profile.TwoFactor;
  // Nothing to offer while the service has no Discord login and nothing is linked.
  if (!linked && !enabled) return null;
  const link = async ({ password, totp }: Record<string, string>) => {
    const reply = await api.post('/api/home/discord', totp === undefined ? { password } : { password, totp: totp.trim() });
    // Discord's own page: a real navigation, away from this app.
    window.location.assign(reply.url!);
  };
  const unlink = () =>
    action.run(async () => {
      setAsking(false);
      await api.delete('/api/home/discord');
      await props.onChange();
      return t('discord.unlinked');
    });
  return (
    <section class="card" aria-labelledby="discord-title">
      <h3 id="discord-title">Discord</h3>
      {linked ? (
        <>
          <LinkedAccount discord={props.profile.Discord} />
          <p class="muted">{t('discord.linkedText')}</p>
          <button ref={unlinkButton} type="button" class="secondary" disabled={action.busy} onClick={() => setAsking(true)}>
            {t('discord.unlink')}
          </button>
          {asking && (
            <Confirmation
              confirmLabel={t('discord.unlink')}
              onConfirm={() => void unlink()}
              onCancel={() => {
                setAsking(false);
                unlinkButton.current?.focus();
              }}
            >
              {t('discord.unlinkQuestion', { name: props.profile.Discord.username })}
            </Confirmation>
          )}
        </>
      ) : linking ? (
        <>
          <p>{twoFactor ? t('discord.linkPasswordCode') : t('discord.linkPassword')}</p>
          <Form submitLabel={t('discord.continueToDiscord')} submit={link}>
            <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
            {twoFactor && <Field label={t('twoFactor.eitherCode')} name="totp" required autocomplete="one-time-code" />}
          </Form>
          <button type="button" class="secondary" onClick={() => setLinking(false)}>
            {t('common.cancel')}
          </button>
        </>
      ) : (
        <>
          <p class="muted">{t('discord.linkText')}</p>
          <button type="button" onClick={() => setLinking(true)}>
            {t('discord.link')}
          </button>
        </>
      )}
      {action.outcome}
    </section>
  );
}

/**
 * The admin console's view of a user's Discord link (avatar, name, id) and, for admins, unlinking it (the admin patch
 * `dsid: false`).
 */
export function AdminDiscordLink(props: {
  userId: number;
  name: string;
  discord: UserDetail['Discord'];
  linked: boolean;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const unlink = () =>
    action.run(async () => {
      setAsking(false);
      await api.patch(`/api/admin/user/${props.userId}`, { dsid: false });
      await props.onChanged();
      return t('adminParts.discordUnlinked', { name: props.name });
    });
  return (
    <div role="group" aria-labelledby="user-discord-heading">
      <h3 id="user-discord-heading">Discord</h3>
      {props.linked ? <LinkedAccount discord={props.discord} /> : <p class="muted">{t('adminParts.noDiscord')}</p>}
      {props.linked && props.canEdit && (
        <button type="button" class="secondary small" disabled={action.busy} onClick={() => setAsking(true)}>
          {t('discord.unlink')}
        </button>
      )}
      {asking && (
        <Confirmation confirmLabel={t('discord.unlink')} onConfirm={() => void unlink()} onCancel={() => setAsking(false)}>
          {t('adminParts.discordQuestion', { discord: props.discord.username, name: props.name })}
        </Confirmation>
      )}
      {action.outcome}
    </div>
  );
}

/** A cell of the admin user list: the linked Discord account's avatar and name, or nothing. */
export function DiscordCell(props: { discord: { username: string; avatar: string } | null | undefined }) {
  if (!props.discord) return null;
  return (
    <span class="discord-account">
      <DiscordAvatar url={props.discord.avatar} name={props.discord.username} size={24} />
      <span>{props.discord.username}</span>
    </span>
  );
}
