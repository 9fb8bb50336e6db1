// Skins: every player's skins with their owner by name; admins rename them, switch their arm model and delete one as
// moderation (the owner is mailed the reason), each in the page.
import { useState } from 'preact/hooks';
import { api, textureUrls, type SkinRecord } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { Notice, useAction } from '../../components.tsx';
import { ReasonConfirmation } from '../../editing.tsx';
import { Rich, useT } from '../../i18n.ts';
import { usePagedList } from '../../table.tsx';
import { plainMessage, UserLink } from './names.tsx';

export function SkinsSection(props: { level: number }) {
  const t = useT();
  const list = usePagedList<SkinRecord>('/api/admin/skins', {});
  return (
    <section aria-labelledby="skins-heading">
      <h2 id="skins-heading">{t('admin:skins.heading')}</h2>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 && <p class="muted">{t('admin:skins.none')}</p>}
      <SkinList level={props.level} skins={list.rows ?? []} onChanged={list.reload} showOwner />
      {list.pager}
    </section>
  );
}

/** Skins as a list with the admin's actions; shared by the Skins section and the user editor. */
export function SkinList(props: { level: number; skins: SkinRecord[]; onChanged: () => void; showOwner?: boolean }) {
  const t = useT();
  const action = useAction();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const canEdit = props.level >= LEVELS.admin;
  const run = (work: () => Promise<string>) =>
    action.run(async () => {
      try {
        return await work();
      } catch (error) {
        throw new Error(plainMessage(error));
      } finally {
        props.onChanged();
      }
    });
  return (
    <>
      {action.outcome}
      <ul class="items admin-skins">
        {props.skins.map((skin) => (
          <li key={skin.uuid} aria-label={t('admin:skins.item', { name: skin.name })}>
            <img src={textureUrls.head(skin.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{skin.name}</strong>
              <small>
                {props.showOwner && (
                  <>
                    <Rich
                      text={t('admin:skins.ownedBy')}
                      parts={{ owner: () => <UserLink id={skin.owner} name={skin.owner_name ?? ''} /> }}
                    />
                    {' · '}
                  </>
                )}
                {t(skin.slim ? 'admin:skins.slimArms' : 'admin:skins.classicArms')}
                {skin.hd ? ` · ${t('admin:skins.hd')}` : ''}
                {skin.selected ? ` · ${t('admin:skins.worn')}` : ''}
              </small>
              {renaming === skin.uuid && (
                <RenameForm
                  skin={skin}
                  onCancel={() => setRenaming(null)}
                  onRename={(name) => {
                    setRenaming(null);
                    void run(async () => {
                      await api.patch(`/api/admin/skin/${skin.uuid}`, { name });
                      return t('admin:skins.renamed', { name });
                    });
                  }}
                />
              )}
              {deleting === skin.uuid && (
                <ModerationDelete
                  skin={skin}
                  onCancel={() => setDeleting(null)}
                  onDelete={(reason) => {
                    setDeleting(null);
                    void run(async () => {
                      await api.delete(`/api/admin/skin/${skin.uuid}`, { reason });
                      return t(reason ? 'admin:skins.deletedReason' : 'admin:skins.deleted', { name: skin.name });
                    });
                  }}
                />
              )}
            </div>
            {canEdit && (
              <div class="actions">
                <button
                  type="button"
                  class="secondary small"
                  disabled={action.busy}
                  aria-label={t(skin.slim ? 'admin:skins.makeClassicNamed' : 'admin:skins.makeSlimNamed', { name: skin.name })}
                  onClick={() =>
                    void run(async () => {
                      await api.patch(`/api/admin/skin/${skin.uuid}`, { slim: !skin.slim });
                      return t(skin.slim ? 'admin:skins.nowClassic' : 'admin:skins.nowSlim', { name: skin.name });
                    })
                  }
                >
                  {t(skin.slim ? 'admin:skins.makeClassic' : 'admin:skins.makeSlim')}
                </button>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={t('admin:skins.renameNamed', { name: skin.name })}
                  onClick={() => setRenaming(skin.uuid)}
                >
                  {t('admin:skins.rename')}
                </button>
                <button
                  type="button"
                  class="danger small"
                  aria-label={t('admin:skins.deleteNamed', { name: skin.name })}
                  onClick={() => setDeleting(skin.uuid)}
                >
                  {t('admin:skins.delete')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function RenameForm(props: { skin: SkinRecord; onRename: (name: string) => void; onCancel: () => void }) {
  const t = useT();
  const [name, setName] = useState(props.skin.name);
  const id = `rename-${props.skin.uuid}`;
  return (
    <form
      class="rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) props.onRename(name.trim());
      }}
      onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}
    >
      <label for={id}>{t('admin:skins.newName')}</label>
      <input id={id} value={name} maxLength={64} required autoFocus onInput={(event) => setName(event.currentTarget.value)} />
      <button type="submit" class="small">
        {t('admin:skins.saveName')}
      </button>
      <button type="button" class="secondary small" onClick={props.onCancel}>
        {t('admin:skins.cancel')}
      </button>
    </form>
  );
}

/** The moderation delete asked in the page, with an optional reason the owner reads in their mail. */
function ModerationDelete(props: { skin: SkinRecord; onDelete: (reason: string) => void; onCancel: () => void }) {
  const t = useT();
  return (
    <ReasonConfirmation
      fieldId={`reason-${props.skin.uuid}`}
      label={t('admin:skins.deleteLabel', { name: props.skin.name })}
      confirmLabel={t('admin:skins.deleteSkin')}
      reasonLabel={t('admin:skins.reason')}
      tooLongMessage={t('admin:skins.reasonTooLong')}
      onConfirm={props.onDelete}
      onCancel={props.onCancel}
    >
      {props.skin.owner_name
        ? t('admin:skins.deleteQuestionOwner', { name: props.skin.name, owner: props.skin.owner_name })
        : t('admin:skins.deleteQuestion', { name: props.skin.name })}
    </ReasonConfirmation>
  );
}
