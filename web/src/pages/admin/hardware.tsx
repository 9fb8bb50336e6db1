// Hardware: the machines a GravitLauncher LaunchServer reported, with the players who launched the game on them;
// admins ban or unban one. The user editor shows the same list for one player's machines.
import { useEffect, useState } from 'preact/hooks';
import type { HardwareStatus } from '../../../../src/gravit/shapes.ts';
import { api, type HardwareRecord } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { Notice, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { formatNumber, language, t, useT } from '../../i18n.ts';
import { Table, usePagedList } from '../../table.tsx';
import { UserLink } from './names.tsx';
import { listOf } from './words.ts';

let hardwareStatus: Promise<boolean> | null = null;

/**
 * Whether the console has hardware to show: GRAVIT_TOKEN is set, or a LaunchServer's sql core recorded some. Asked
 * once per page load, once `ask` (a moderator's console); null until answered (a failure answers true: the tab then
 * says what the list holds).
 */
export function useHardwareShown(ask = true): boolean | null {
  const [shown, setShown] = useState<boolean | null>(null);
  useEffect(() => {
    if (!ask) return;
    hardwareStatus ??= api.get<HardwareStatus>('/api/admin/hardware/status').then(
      (reply) => reply.data.launcher_api || reply.data.reported > 0,
      () => true,
    );
    void hardwareStatus.then(setShown);
  }, [ask]);
  return shown;
}

export function HardwareSection(props: { level: number }) {
  const t = useT();
  return (
    <section aria-labelledby="hardware-heading">
      <h2 id="hardware-heading">{t('admin:tabs.hardware')}</h2>
      <p class="muted">{t('admin:hardware.intro')}</p>
      <HardwareList level={props.level} empty={t('admin:hardware.none')} />
    </section>
  );
}

const notReported = () => t('admin:hardware.notReported');
/** A number and its unit, kept on one line in a narrow cell. */
const nowrap = (text: string) => text.replace(/ /g, '\u00a0');

/** The launcher reports bytes; 0 when it could not read them. */
const memory = (bytes: number) =>
  bytes > 0 ? nowrap(t('admin:hardware.memory', { value: formatNumber(bytes / 2 ** 30, { maximumFractionDigits: 1 }) })) : notReported();

/** Cores, threads and the highest clock (reported in Hz), leaving out what was not reported. */
function processors(info: HardwareRecord['hardwareInfo']): string {
  const parts = [
    info.physicalProcessors > 0 ? nowrap(t('admin:hardware.cores', { count: info.physicalProcessors })) : '',
    info.logicalProcessors > 0 ? nowrap(t('admin:hardware.threads', { count: info.logicalProcessors })) : '',
    info.processorMaxFreq > 0
      ? nowrap(t('admin:hardware.clock', { value: formatNumber(info.processorMaxFreq / 1e9, { maximumFractionDigits: 2 }) }))
      : '',
  ].filter(Boolean);
  return parts.length > 0 ? new Intl.ListFormat(language(), { style: 'narrow', type: 'conjunction' }).format(parts) : notReported();
}

function Players(props: { users: HardwareRecord['users'] }) {
  if (props.users.length === 0) return <span class="muted">{t('admin:hardware.noPlayers')}</span>;
  return (
    <>
      {props.users.map((user, index) => (
        <span key={user.id}>
          {index > 0 && ', '}
          <UserLink id={user.id} name={user.username} unnamed={t('admin:hardware.unfinished')} />
        </span>
      ))}
    </>
  );
}

/** A page of hardware records (every one, or only `user`'s), with ban and unban for admins after a confirmation. */
export function HardwareList(props: { level: number; user?: number; empty: string }) {
  const t = useT();
  const list = usePagedList<HardwareRecord>('/api/admin/hardware', { user: props.user });
  const action = useAction();
  const [asking, setAsking] = useState<HardwareRecord | null>(null);
  const canBan = props.level >= LEVELS.admin;
  const setBanned = (record: HardwareRecord) => {
    setAsking(null);
    void action.run(async () => {
      const banned = !record.banned;
      await api.patch(`/api/admin/hardware/${record.id}`, { banned });
      list.reload();
      return t(banned ? 'admin:hardware.banned' : 'admin:hardware.unbanned', { id: record.id });
    });
  };
  return (
    <>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      {asking && (
        <Confirmation
          key={asking.id}
          confirmLabel={t(asking.banned ? 'admin:hardware.unbanNamed' : 'admin:hardware.banNamed', { id: asking.id })}
          danger={!asking.banned}
          onConfirm={() => setBanned(asking)}
          onCancel={() => setAsking(null)}
        >
          {asking.banned
            ? t('admin:hardware.unbanQuestion', { id: asking.id })
            : asking.users.length > 0
              ? t('admin:hardware.banQuestion', { id: asking.id, players: listOf(asking.users.map((user) => user.username)) })
              : t('admin:hardware.banQuestionNobody', { id: asking.id })}
        </Confirmation>
      )}
      {list.rows?.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <>
          <Table
            headers={[
              t('admin:hardware.id'),
              t('admin:hardware.disk'),
              t('admin:hardware.board'),
              t('admin:hardware.graphics'),
              t('admin:hardware.memoryHeader'),
              t('admin:hardware.processors'),
              t('admin:hardware.players'),
              t('admin:hardware.bannedHeader'),
              ...(canBan ? [t('admin:hardware.action')] : []),
            ]}
            rows={list.rows}
            cells={(record) => [
              record.id,
              record.hardwareInfo.hwDiskId ?? notReported(),
              record.hardwareInfo.baseboardSerialNumber ?? notReported(),
              record.hardwareInfo.graphicCard ?? notReported(),
              memory(record.hardwareInfo.totalMemory),
              processors(record.hardwareInfo),
              <Players users={record.users} />,
              record.banned ? <strong class="danger">{t('admin:hardware.isBanned')}</strong> : t('admin:hardware.no'),
              ...(canBan
                ? [
                    <button
                      type="button"
                      class={record.banned ? 'secondary' : 'danger'}
                      disabled={action.busy}
                      onClick={() => setAsking(record)}
                    >
                      {record.banned ? t('admin:hardware.unban') : t('admin:hardware.ban')}
                    </button>,
                  ]
                : []),
            ]}
          />
          {list.pager}
        </>
      )}
    </>
  );
}
