// The game servers the game refuses to join (contract section 24): admins list them, add one (a host name,
// *.example.com, an IP address or a prefix such as 192.168.*) and remove one; the game reads their SHA-1s from
// sessionserver/blockedservers.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { Field, Form, Notice, useAction } from '../../components.tsx';
import { dateTime, useT } from '../../i18n.ts';
import { plainMessage } from './names.tsx';

interface BlockedServer {
  id: number;
  address: string;
  sha1: string;
  created: number;
  by: string;
}

const PATH = '/api/admin/blocked-servers';

export function BlockedServersSection() {
  const t = useT();
  const [servers, setServers] = useState<BlockedServer[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const removing = useAction();
  const load = () =>
    api.get<BlockedServer[]>(PATH).then(
      (reply) => setServers(reply.data),
      (error) => setFailure(plainMessage(error)),
    );
  useEffect(() => void load(), []);
  return (
    <section class="card" aria-labelledby="servers-heading">
      <h2 id="servers-heading" tabIndex={-1}>
        {t('admin:servers.heading')}
      </h2>
      <p class="muted">{t('admin:servers.intro')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      <Form
        submitLabel={t('admin:servers.block')}
        resetOnSuccess
        submit={async (fields) => {
          try {
            await api.post(PATH, { address: fields.address });
          } catch (error) {
            throw new Error(plainMessage(error));
          }
          await load();
          return t('admin:servers.blocked', { address: fields.address!.trim().toLowerCase() });
        }}
      >
        <Field label={t('admin:servers.address')} name="address" required autocomplete="off" hint={t('admin:servers.addressHint')} />
      </Form>
      {servers && servers.length === 0 && <p>{t('admin:servers.none')}</p>}
      {servers && servers.length > 0 && (
        <ul class="items" aria-label={t('admin:servers.heading')}>
          {servers.map((server) => (
            <li key={server.id}>
              <div class="grow">
                <strong>{server.address}</strong>
                <small>{t('admin:servers.by', { by: server.by, when: dateTime(server.created) })}</small>
              </div>
              <button
                type="button"
                class="secondary"
                aria-label={t('admin:servers.unblockNamed', { address: server.address })}
                disabled={removing.busy}
                onClick={() =>
                  void removing.run(async () => {
                    try {
                      await api.delete(`${PATH}/${server.id}`);
                    } catch (error) {
                      throw new Error(plainMessage(error));
                    }
                    await load();
                    return t('admin:servers.unblocked', { address: server.address });
                  })
                }
              >
                {t('admin:servers.unblock')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{removing.outcome}</div>
    </section>
  );
}
