// Capes: every cape with its owners; admins upload capes for players and delete them.
import { api, LEVELS, textureUrls, type CapeRecord } from '../../api.ts';
import { Field, Form, Notice, useAction } from '../../components.tsx';
import { usePagedList } from '../../table.tsx';

export function CapesSection(props: { level: number }) {
  const list = usePagedList<CapeRecord>('/api/admin/allcapes', {});
  const action = useAction();
  const canEdit = props.level >= LEVELS.admin;
  return (
    <section>
      {canEdit && (
        <Form
          resetOnSuccess
          submitLabel="Upload cape"
          submit={async (fields, form) => {
            const upload = new FormData();
            upload.append('name', fields.cape_name ?? '');
            upload.append('owners', fields.cape_owners ?? '');
            upload.append('cape', form.get('cape_file') as File);
            await api.upload('/api/admin/user/cape/upload', upload);
            list.reload();
            return 'Cape uploaded';
          }}
        >
          <h2>Upload a cape</h2>
          <div class="fields">
            <Field label="Cape name" name="cape_name" required />
            <Field label="Owners (user ids, comma-separated)" name="cape_owners" hint="The players who may wear it" />
            <div class="field">
              <label for="cape-file">Cape PNG</label>
              <input id="cape-file" name="cape_file" type="file" accept="image/png" required />
            </div>
          </div>
        </Form>
      )}
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      <ul class="items">
        {list.rows?.map((cape) => (
          <li key={cape.uuid}>
            <img src={textureUrls.cloak(cape.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <small>owners: {cape.owners.join(', ') || 'none'}</small>
            </div>
            {canEdit && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm(`Delete the cape "${cape.name}"? Its owners lose it.`))
                    void action.run(async () => {
                      await api.delete('/api/admin/user/cape/upload', { capeid: cape.uuid });
                      list.reload();
                      return 'Cape deleted';
                    });
                }}
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
