// Skins: every player's skins; admins rename them and switch their model.
import { api, LEVELS, textureUrls, type SkinRecord } from '../../api.ts';
import { askNewName, Notice, useAction } from '../../components.tsx';
import { usePagedList } from '../../table.tsx';

export function SkinsSection(props: { level: number }) {
  const list = usePagedList<SkinRecord>('/api/admin/skins', {});
  const action = useAction();
  const edit = (skin: SkinRecord, changes: Record<string, unknown>) =>
    action.run(async () => {
      await api.patch(`/api/admin/skin/${skin.uuid}`, changes);
      list.reload();
      return 'Saved';
    });
  const canEdit = props.level >= LEVELS.admin;
  return (
    <section>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      <ul class="items">
        {list.rows?.map((skin) => (
          <li key={skin.uuid}>
            <img src={textureUrls.head(skin.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{skin.name}</strong>
              <small>
                owner {skin.owner} · {skin.slim ? 'slim' : 'classic'}
                {skin.hd ? ' · HD' : ''}
              </small>
            </div>
            {canEdit && (
              <>
                <button type="button" class="secondary" onClick={() => void edit(skin, { slim: !skin.slim })}>
                  Make {skin.slim ? 'classic' : 'slim'}
                </button>
                <button type="button" class="secondary" onClick={() => askNewName(skin.name, (name) => void edit(skin, { name }))}>
                  Rename
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {list.pager}
    </section>
  );
}
