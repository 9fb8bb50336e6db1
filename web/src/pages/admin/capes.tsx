// Capes: every cape with its owners by name; admins upload capes, give one to a player by typing their name, take it
// back, and delete capes, each hard-to-undo step after a confirmation in the page.
import { useState } from 'preact/hooks';
import { api, LEVELS, textureUrls, type CapeRecord, type UserDetail } from '../../api.ts';
import { Confirmation, Notice, useAction } from '../../components.tsx';
import { usePagedList } from '../../table.tsx';
import { playerNamed, plainMessage, UserLink, UsernameField } from './names.tsx';

/** POST /api/admin/user/cape/{id} replaces the set of capes a player owns: the set they have, plus or minus one. */
async function changeCapes(player: Pick<UserDetail, 'Capes'> & { Id: number }, capeUuid: string, give: boolean) {
  const owned = player.Capes.map((cape) => cape.Id).filter((uuid) => uuid !== capeUuid);
  await api.post(`/api/admin/user/cape/${player.Id}`, { user: player.Id, cape: give ? [...owned, capeUuid] : owned });
}

type Asking = { kind: 'delete'; cape: CapeRecord } | { kind: 'take'; cape: CapeRecord; owner: { id: number; username: string } };

export function CapesSection(props: { level: number }) {
  const list = usePagedList<CapeRecord>('/api/admin/allcapes', {});
  const action = useAction();
  const [asking, setAsking] = useState<Asking | null>(null);
  const canEdit = props.level >= LEVELS.admin;
  const confirmed = (question: Asking) => {
    setAsking(null);
    void action.run(async () => {
      try {
        if (question.kind === 'delete') {
          await api.delete('/api/admin/user/cape/upload', { capeid: question.cape.uuid });
          return `The cape “${question.cape.name}” is deleted.`;
        }
        const owner = await playerNamed(String(question.owner.id));
        await changeCapes(owner, question.cape.uuid, false);
        return `${question.owner.username} no longer has the cape “${question.cape.name}”.`;
      } catch (error) {
        throw new Error(plainMessage(error));
      } finally {
        list.reload();
      }
    });
  };
  return (
    <section aria-labelledby="capes-heading">
      <h2 id="capes-heading">Capes</h2>
      {canEdit && <CapeUpload onUploaded={list.reload} />}
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {action.outcome}
      {list.rows?.length === 0 && <p class="muted">No capes yet.</p>}
      <ul class="items admin-capes">
        {list.rows?.map((cape) => (
          <li key={cape.uuid} aria-label={`Cape ${cape.name}`}>
            <img src={textureUrls.cloak(cape.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <div class="owners">
                <span class="muted">Owners: </span>
                {(cape.owner_users ?? []).length === 0 && <span class="muted">nobody yet</span>}
                <ul class="owner-list">
                  {(cape.owner_users ?? []).map((owner) => (
                    <li key={owner.id}>
                      <UserLink id={owner.id} name={owner.username} />
                      {canEdit && (
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Take back ${cape.name} from ${owner.username}`}
                          onClick={() => setAsking({ kind: 'take', cape, owner })}
                        >
                          Take back
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
              {asking && asking.cape.uuid === cape.uuid && (
                <Confirmation
                  confirmLabel={asking.kind === 'delete' ? `Delete the cape ${cape.name}` : `Take it from ${asking.owner.username}`}
                  danger
                  onConfirm={() => confirmed(asking)}
                  onCancel={() => setAsking(null)}
                >
                  {asking.kind === 'delete'
                    ? `Delete the cape “${cape.name}”? Its ${(cape.owner_users ?? []).length} owners lose it, and it cannot be undone.`
                    : `Take the cape “${cape.name}” back from ${asking.owner.username}? They stop wearing it at once.`}
                </Confirmation>
              )}
              {canEdit && <GiveCape cape={cape} onGiven={list.reload} />}
            </div>
            {canEdit && (
              <button
                type="button"
                class="danger"
                aria-label={`Delete the cape ${cape.name}`}
                onClick={() => setAsking({ kind: 'delete', cape })}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {list.pager}
    </section>
  );
}

/** Gives one cape to a player typed by name (suggestions as they type). */
function GiveCape(props: { cape: CapeRecord; onGiven: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const give = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      const player = await playerNamed(name);
      if (player.Capes.some((cape) => cape.Id === props.cape.uuid)) {
        setError(`${player.Username} has this cape already.`);
        return;
      }
      await changeCapes(player, props.cape.uuid, true);
      setDone(`${player.Username} can now wear the cape “${props.cape.name}”.`);
      setName('');
      props.onGiven();
    } catch (failure) {
      setError(plainMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="give-cape" onSubmit={(event) => void give(event)}>
      <UsernameField label={`Give “${props.cape.name}” to`} value={name} onInput={setName} required error={error} />
      <button type="submit" class="secondary" disabled={busy}>
        Give cape
      </button>
      {done && <Notice kind="ok">{done}</Notice>}
    </form>
  );
}

/** A new cape, with its first owners typed by name (comma-separated). */
function CapeUpload(props: { onUploaded: () => void }) {
  const [owners, setOwners] = useState('');
  const [ownersError, setOwnersError] = useState<string | null>(null);
  const action = useAction();
  return (
    <form
      class="form card"
      aria-labelledby="cape-upload-heading"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        const data = new FormData(form);
        setOwnersError(null);
        void action.run(async () => {
          const names = owners
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean);
          const ids: number[] = [];
          for (const name of names) {
            try {
              ids.push((await playerNamed(name)).Id);
            } catch (error) {
              setOwnersError(plainMessage(error));
              return;
            }
          }
          const file = data.get('cape_file');
          if (!(file instanceof File) || file.size === 0) throw new Error('Choose a PNG file for the cape.');
          const upload = new FormData();
          upload.append('name', String(data.get('cape_name') ?? ''));
          upload.append('owners', ids.join(','));
          upload.append('cape', file);
          try {
            await api.upload('/api/admin/user/cape/upload', upload);
          } catch (error) {
            throw new Error(plainMessage(error));
          }
          form.reset();
          setOwners('');
          props.onUploaded();
          return 'Cape uploaded.';
        });
      }}
    >
      <h3 id="cape-upload-heading">Upload a cape</h3>
      <div class="fields">
        <div class="field">
          <label for="cape-name">Cape name</label>
          <input id="cape-name" name="cape_name" required maxLength={64} />
        </div>
        <UsernameField
          label="Owners"
          value={owners}
          onInput={setOwners}
          several
          error={ownersError}
          hint="Player names, separated by commas; you can also give it later"
        />
        <div class="field">
          <label for="cape-file">Cape PNG</label>
          <input id="cape-file" name="cape_file" type="file" accept="image/png" required />
        </div>
      </div>
      <button type="submit" disabled={action.busy}>
        Upload cape
      </button>
      {action.outcome}
    </form>
  );
}
