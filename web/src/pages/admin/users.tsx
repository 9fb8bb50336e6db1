// Users: search and page through every account; a chosen one opens in the editor above the list.
import { useState } from 'preact/hooks';
import { LEVEL_NAMES, type UserRecord } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { Link } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { UserEditor } from './user-editor.tsx';

export function UsersSection(props: { level: number; editing: string | null }) {
  const [search, setSearch] = useState('');
  const list = usePagedList<UserRecord>('/api/admin/users', { search });
  return (
    <section>
      {props.editing && <UserEditor identifier={props.editing} level={props.level} onSaved={list.reload} />}
      <div class="field">
        <label for="user-search">Search by username or mail</label>
        <input id="user-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      <Table
        headers={['Id', 'Username', 'Mail', 'Perms', 'Verified']}
        rows={list.rows}
        cells={(user) => [
          user.id,
          <Link href={`/admin?tab=users&user=${user.id}`}>{user.username || '(unfinished)'}</Link>,
          user.mail,
          LEVEL_NAMES[user.perms] ?? user.perms,
          user.mail_verify ? 'yes' : 'no',
        ]}
      />
      {list.pager}
    </section>
  );
}
