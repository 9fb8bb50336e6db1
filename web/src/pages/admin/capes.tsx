// Capes: every cape with its owners by name; admins upload capes, give one to a player by typing their name, take it
// back, and delete capes, each hard-to-undo step after a confirmation in the page.
import { useState } from 'preact/hooks';
import { api, textureUrls, type CapeRecord, type UserDetail } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { Notice, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { useT } from '../../i18n.ts';
import { usePagedList } from '../../table.tsx';
import { playerNamed, plainMessage, UserLink, UsernameField } from './names.tsx';

/** POST /api/admin/user/cape/{id} replaces the set of capes a player owns: the set they have, plus or minus one. */
async function changeCapes(player: Pick<UserDetail, 'Capes'> & { Id: number }, capeUuid: string, give: boolean) {
  const owned = player.Capes.map((cape) => cape.Id).filter((uuid) => uuid !== capeUuid);
  await api.post(`/api/admin/user/cape/${player.Id}`, { user: player.Id, cape: give ? [...owned, capeUuid] : owned });
}

type Asking = { kind: 'delete'; cape: CapeRecord } | { kind: 'take'; cape: CapeRecord; owner: { id: number; username: string } };

export function CapesSection(props: { level: number }) {
  const t = useT();
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
          return t('admin:capes.deleted', { name: question.cape.name });
        }
        const owner = await playerNamed(String(question.owner.id));
        await changeCapes(owner, question.cape.uuid, false);
        return t('admin:capes.taken', { name: question.owner.username, cape: question.cape.name });
      } catch (error) {
        throw new Error(plainMessage(error));
      } finally {
        list.reload();
      }
    });
  };
  return (
    <section aria-labelledby="capes-heading">
      <h2 id="capes-heading">{t('admin:capes.heading')}</h2>
      {canEdit && <CapeUpload onUploaded={list.reload} />}
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {action.outcome}
      {list.rows?.length === 0 && <p class="muted">{t('admin:capes.none')}</p>}
      <ul class="items admin-capes">
        {list.rows?.map((cape) => (
          <li key={cape.uuid} aria-label={t('admin:capes.item', { name: cape.name })}>
            <img src={textureUrls.cloak(cape.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <div class="owners">
                <span class="muted">{t('admin:capes.owners')} </span>
                {(cape.owner_users ?? []).length === 0 && <span class="muted">{t('admin:capes.nobody')}</span>}
                <ul class="owner-list">
                  {(cape.owner_users ?? []).map((owner) => (
                    <li key={owner.id}>
                      <UserLink id={owner.id} name={owner.username} />
                      {canEdit && (
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={t('admin:capes.takeBackNamed', { cape: cape.name, name: owner.username })}
                          onClick={() => setAsking({ kind: 'take', cape, owner })}
                        >
                          {t('admin:capes.takeBack')}
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
              {asking && asking.cape.uuid === cape.uuid && (
                <Confirmation
                  confirmLabel={
                    asking.kind === 'delete'
                      ? t('admin:capes.deleteNamed', { name: cape.name })
                      : t('admin:capes.takeFrom', { name: asking.owner.username })
                  }
                  danger
                  onConfirm={() => confirmed(asking)}
                  onCancel={() => setAsking(null)}
                >
                  {asking.kind === 'delete'
                    ? t('admin:capes.deleteQuestion', { name: cape.name, count: (cape.owner_users ?? []).length })
                    : t('admin:capes.takeQuestion', { cape: cape.name, name: asking.owner.username })}
                </Confirmation>
              )}
              {canEdit && <GiveCape cape={cape} onGiven={list.reload} />}
            </div>
            {canEdit && (
              <button
                type="button"
                class="danger"
                aria-label={t('admin:capes.deleteNamed', { name: cape.name })}
                onClick={() => setAsking({ kind: 'delete', cape })}
              >
                {t('admin:capes.delete')}
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
  const t = useT();
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
        setError(t('admin:capes.hasIt', { name: player.Username }));
        return;
      }
      await changeCapes(player, props.cape.uuid, true);
      setDone(t('admin:capes.given', { name: player.Username, cape: props.cape.name }));
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
      <UsernameField label={t('admin:capes.giveTo', { cape: props.cape.name })} value={name} onInput={setName} required error={error} />
      <button type="submit" class="secondary" disabled={busy}>
        {t('admin:capes.give')}
      </button>
      {done && <Notice kind="ok">{done}</Notice>}
    </form>
  );
}

/** A new cape, with its first owners typed by name (comma-separated). */
function CapeUpload(props: { onUploaded: () => void }) {
  const t = useT();
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
          if (!(file instanceof File) || file.size === 0) throw new Error(t('admin:capes.chooseFile'));
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
          return t('admin:capes.uploaded');
        });
      }}
    >
      <h3 id="cape-upload-heading">{t('admin:capes.uploadHeading')}</h3>
      <div class="fields">
        <div class="field">
          <label for="cape-name">{t('admin:capes.name')}</label>
          <input id="cape-name" name="cape_name" required maxLength={64} />
        </div>
        <UsernameField
          label={t('admin:capes.ownersField')}
          value={owners}
          onInput={setOwners}
          several
          error={ownersError}
          hint={t('admin:capes.ownersHint')}
        />
        <div class="field">
          <label for="cape-file">{t('admin:capes.file')}</label>
          <input id="cape-file" name="cape_file" type="file" accept="image/png" required />
        </div>
      </div>
      <button type="submit" disabled={action.busy}>
        {t('admin:capes.upload')}
      </button>
      {action.outcome}
    </form>
  );
}
