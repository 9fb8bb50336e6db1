// Users: search and page through every account with their effective level (a temporary role marked); a chosen one
// opens in a dialog over the list, where the admin is looking, and closing it returns to the list.
import { useState } from 'preact/hooks';
import type { UserRecord } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { Dialog } from '../../dialog.tsx';
import { dateTime, t, useT } from '../../i18n.ts';
import { navigate } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { plainMessage, UserLink } from './names.tsx';
import { DiscordCell } from '../discord-account.tsx';
import { UserEditor } from './user-editor.tsx';
import { levelName } from './words.ts';

/** The level a user acts at, and where a role grant raises it, that it does and until when. */
function LevelText(props: { user: Pick<UserRecord, 'perms' | 'level' | 'role_grant'> }) {
  const level = props.user.level ?? props.user.perms;
  const grant = props.user.role_grant;
  const raised = grant?.active && level === grant.role_level && level > props.user.perms;
  return (
    <>
      {level === -1 ? <strong class="danger">{levelName(-1)}</strong> : levelName(level)}
      {raised && (
        <>
          {' '}
          <span class="temporary">
            {grant.expired_at === null ? t('admin:users.byRole') : t('admin:users.temporaryUntil', { date: dateTime(grant.expired_at) })}
          </span>
        </>
      )}
    </>
  );
}

export function UsersSection(props: { level: number; editing: string | null }) {
  const t = useT();
  const [search, setSearch] = useState('');
  const list = usePagedList<UserRecord>('/api/admin/users', { search });
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">{t('admin:users.heading')}</h2>
      {props.editing && (
        <Dialog
          class="user-dialog"
          labelledBy="user-editor-heading"
          closeLabel={t('admin:users.close')}
          onClose={() => navigate('/admin?tab=users')}
        >
          <UserEditor key={props.editing} identifier={props.editing} level={props.level} onSaved={list.reload} />
        </Dialog>
      )}
      <div class="field">
        <label for="user-search">{t('admin:users.search')}</label>
        <input id="user-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 ? (
        <p class="muted">{t('admin:users.nobody')}</p>
      ) : (
        <Table
          headers={[
            t('admin:users.name'),
            t('admin:users.mail'),
            t('admin:users.level'),
            t('admin:users.confirmed'),
            t('admin:users.discord'),
          ]}
          rows={list.rows}
          cells={(user) => [
            user.username ? <UserLink id={user.id} name={user.username} /> : <span class="muted">{t('admin:users.unfinished')}</span>,
            user.mail,
            <LevelText user={user} />,
            user.mail_verify ? t('admin:users.yes') : t('admin:users.no'),
            <DiscordCell discord={user.discord} />,
          ]}
        />
      )}
      {list.pager}
    </section>
  );
}
