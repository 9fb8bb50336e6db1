// Hardware: the machines a GravitLauncher LaunchServer reported, with the players who launched the game on them;
// admins ban or unban one. The user editor shows the same list for one player's machines.
import { useState } from 'preact/hooks';
import { api, LEVELS, type HardwareRecord } from '../../api.ts';
import { Confirmation, Notice, useAction } from '../../components.tsx';
import { Link } from '../../router.tsx';
import { Table, usePagedList } from '../../table.tsx';

export function HardwareSection(props: { level: number }) {
  return (
    <section>
      <p class="muted">
        Machines players launched the game on, as a GravitLauncher LaunchServer with hardware protection reported them, newest first. A
        LaunchServer refuses a banned machine, whichever account logs in on it.
      </p>
      <HardwareList level={props.level} empty="No hardware reported yet." />
    </section>
  );
}

const NOT_REPORTED = 'not reported';
/** A number and its unit, kept on one line in a narrow cell. */
const measure = (value: string | number, unit: string) => `${value}\u00a0${unit}`;
const plural = (count: number, word: string) => measure(count, `${word}${count === 1 ? '' : 's'}`);
/** At most `digits` decimals, without trailing zeros: 16, 7.8, 3.6. */
const rounded = (value: number, digits: number) => String(Number(value.toFixed(digits)));

/** The launcher reports bytes; 0 when it could not read them. */
const memory = (bytes: number) => (bytes > 0 ? measure(rounded(bytes / 2 ** 30, 1), 'GiB') : NOT_REPORTED);

/** Cores, threads and the highest clock (reported in Hz), leaving out what was not reported. */
function processors(info: HardwareRecord['hardwareInfo']): string {
  const parts = [
    info.physicalProcessors > 0 ? plural(info.physicalProcessors, 'core') : '',
    info.logicalProcessors > 0 ? plural(info.logicalProcessors, 'thread') : '',
    info.processorMaxFreq > 0 ? measure(rounded(info.processorMaxFreq / 1e9, 2), 'GHz') : '',
  ].filter(Boolean);
  return parts.join(', ') || NOT_REPORTED;
}

function Players(props: { users: HardwareRecord['users'] }) {
  if (props.users.length === 0) return <span class="muted">none</span>;
  return (
    <>
      {props.users.map((user, index) => (
        <span key={user.id}>
          {index > 0 && ', '}
          <Link href={`/admin?tab=users&user=${user.id}`}>{user.username || '(unfinished)'}</Link>
        </span>
      ))}
    </>
  );
}

/** A page of hardware records (every one, or only `user`'s), with ban and unban for admins after a confirmation. */
export function HardwareList(props: { level: number; user?: number; empty: string }) {
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
      return banned ? `Hardware ${record.id} is banned` : `Hardware ${record.id} is no longer banned`;
    });
  };
  return (
    <>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      {asking && (
        <Confirmation
          key={asking.id}
          confirmLabel={asking.banned ? `Unban hardware ${asking.id}` : `Ban hardware ${asking.id}`}
          danger={!asking.banned}
          onConfirm={() => setBanned(asking)}
          onCancel={() => setAsking(null)}
        >
          {asking.banned
            ? `Unban hardware ${asking.id}? Its players can launch the game on this machine again.`
            : `Ban hardware ${asking.id}? A LaunchServer with hardware protection then refuses this machine, for every account: ${
                asking.users.map((user) => user.username).join(', ') || 'no player used it yet'
              }.`}
        </Confirmation>
      )}
      {list.rows?.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <>
          <Table
            headers={[
              'Id',
              'Disk id',
              'Board serial',
              'Graphics card',
              'Memory',
              'Processors',
              'Players',
              'Banned',
              ...(canBan ? ['Action'] : []),
            ]}
            rows={list.rows}
            cells={(record) => [
              record.id,
              record.hardwareInfo.hwDiskId ?? NOT_REPORTED,
              record.hardwareInfo.baseboardSerialNumber ?? NOT_REPORTED,
              record.hardwareInfo.graphicCard ?? NOT_REPORTED,
              memory(record.hardwareInfo.totalMemory),
              processors(record.hardwareInfo),
              <Players users={record.users} />,
              record.banned ? <strong class="danger">banned</strong> : 'no',
              ...(canBan
                ? [
                    <button
                      type="button"
                      class={record.banned ? 'secondary' : 'danger'}
                      disabled={action.busy}
                      onClick={() => setAsking(record)}
                    >
                      {record.banned ? 'Unban' : 'Ban'}
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
