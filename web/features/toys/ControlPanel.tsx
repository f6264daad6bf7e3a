/**
 * The approved viewer's device control panel (spec part 2 §2 screen 12, §4): a button per command the
 * host's toys offer and a range slider for the chosen one. Commands go over the room's channel at most
 * every SEND_INTERVAL_MS (the server allows TOY.commandsPerSecond), always ending on the last value.
 */
import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { TOY } from '../../../common/constants';
import { TOY_COMMANDS, type ToyCommand } from '../../../common/rules/toys';
import { RealtimeError } from '../../api/realtime';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { sendToyOperation } from './api';
import { latestThrottle } from './command-throttle';
import { controlReducer, initialControl, selectorCommands } from './control-state';
import type { ToyPlace } from './toy-rules';
import styles from './toys.module.css';

/** 20 a second: under the server's TOY.commandsPerSecond even when the network bunches frames together. */
const SEND_INTERVAL_MS = 1_000 / (TOY.commandsPerSecond - 5);

export function ControlPanel({ record, place }: { record: ToyAccessRecord; place: ToyPlace }) {
  const [state, dispatch] = useReducer(controlReducer, initialControl);
  const [error, setError] = useState<string | null>(null);
  const sliderId = useId();
  const { stream_id, room } = place;
  const offered = record.commands;
  const offeredKey = offered.join(',');

  useEffect(() => dispatch({ type: 'offered', commands: offered }), [offeredKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const sender = useMemo(
    () =>
      latestThrottle<{ command: ToyCommand; level: number }>(SEND_INTERVAL_MS, ({ command, level }) => {
        sendToyOperation({ stream_id, room }, { type: 'lovense-command', command, level })
          .then(() => setError(null))
          .catch((reason: unknown) => setError(reason instanceof RealtimeError ? reason.message : String(reason)));
      }),
    [stream_id, room],
  );
  useEffect(() => () => sender.cancel(), [sender]);

  const { min, max } = TOY_COMMANDS[state.command];
  const choose = (command: ToyCommand) => {
    dispatch({ type: 'choose', command });
    if (command !== state.command) sender.push({ command, level: TOY_COMMANDS[command].min });
  };
  const slide = (level: number) => {
    dispatch({ type: 'level', level });
    sender.push({ command: state.command, level });
  };

  return (
    <section className={styles.card} aria-label="Device control">
      <h2 className={styles.cardTitle}>Device control</h2>
      <div className={styles.commands} role="group" aria-label="Command">
        {selectorCommands(offered).map((command) => (
          <Button key={command} size="sm" variant={command === state.command ? 'primary' : 'secondary'} aria-pressed={command === state.command} onClick={() => choose(command)}>
            {command}
          </Button>
        ))}
      </div>
      <div className={styles.slider}>
        <div className={styles.sliderHead}>
          <label htmlFor={sliderId}>{state.command}</label>
          <output htmlFor={sliderId}>
            {state.level} / {max}
          </output>
        </div>
        <input id={sliderId} type="range" min={min} max={max} step={1} value={state.level} onChange={(event) => slide(Number(event.target.value))} />
      </div>
      <Alert>{error}</Alert>
    </section>
  );
}
