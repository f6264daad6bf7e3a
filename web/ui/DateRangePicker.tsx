/**
 * The date range selector (spec part 2 §2 screens 2 and 6): a preset menu (This month by default, Last
 * month, Last 6 month, This year, All time) and two day inputs for a custom range inside 2016-01-01 …
 * 2031-12-31. It emits `{ start, end }` (ISO instants with the local offset) once on load and again on
 * every change; a custom pick it refuses (yesterday on its own, a backwards range…) shows why and emits
 * nothing. The rules are in ./date-range.
 */
import { useEffect, useEffectEvent, useId, useState } from 'react';
import {
  DATE_RANGE_PRESETS, DATE_RANGE_SPAN, DEFAULT_DATE_RANGE_PRESET, presetRange, rangeProblem, rangeValue,
  type DateRangePreset, type DateRangeValue, type DayRange,
} from './date-range';
import styles from './DateRangePicker.module.css';
import fieldStyles from './Field.module.css';
import { SelectControl } from './Select';

const CUSTOM = 'custom';
type Choice = DateRangePreset | typeof CUSTOM;

interface DateRangePickerProps {
  onChange: (range: DateRangeValue) => void;
  /** The preset shown first; This month when absent. */
  initialPreset?: DateRangePreset;
  /** The moment the presets are counted from; the time of the first render when absent. */
  now?: Date;
  /** The accessible name of the group and the start of its controls' names. */
  label?: string;
}

export function DateRangePicker({ onChange, initialPreset = DEFAULT_DATE_RANGE_PRESET, now: givenNow, label = 'Date range' }: DateRangePickerProps) {
  const [now] = useState(() => givenNow ?? new Date());
  const [choice, setChoice] = useState<Choice>(initialPreset);
  const [applied, setApplied] = useState<DayRange>(() => presetRange(initialPreset, now));
  const [draft, setDraft] = useState<DayRange>(applied);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();

  const emit = useEffectEvent((value: DateRangeValue) => onChange(value));
  const { start, end } = rangeValue(applied);
  useEffect(() => emit({ start, end }), [start, end]);

  const choosePreset = (value: string) => {
    if (value === CUSTOM) return;
    const preset = value as DateRangePreset;
    const range = presetRange(preset, now);
    setChoice(preset);
    setDraft(range);
    setApplied(range);
    setProblem(null);
  };

  const editDay = (edge: keyof DayRange, day: string) => {
    const next = { ...draft, [edge]: day };
    setDraft(next);
    setChoice(CUSTOM);
    const reason = rangeProblem(next, now);
    setProblem(reason);
    if (!reason) setApplied(next);
  };

  const options = [
    ...DATE_RANGE_PRESETS,
    ...(choice === CUSTOM ? [{ value: CUSTOM, label: 'Custom range' }] : []),
  ];
  const described = problem ? problemId : undefined;
  return (
    <div className={styles.picker} role="group" aria-label={label}>
      <div className={styles.controls}>
        <span className={styles.preset}>
          <SelectControl aria-label={`${label} preset`} options={options} value={choice} onChange={(e) => choosePreset(e.target.value)} />
        </span>
        <input
          type="date"
          aria-label={`${label} start`}
          className={`${fieldStyles.control} ${styles.day}`}
          min={DATE_RANGE_SPAN.first}
          max={DATE_RANGE_SPAN.last}
          value={draft.from}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          onChange={(e) => editDay('from', e.target.value)}
        />
        <span className={styles.dash} aria-hidden="true">–</span>
        <input
          type="date"
          aria-label={`${label} end`}
          className={`${fieldStyles.control} ${styles.day}`}
          min={DATE_RANGE_SPAN.first}
          max={DATE_RANGE_SPAN.last}
          value={draft.to}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          onChange={(e) => editDay('to', e.target.value)}
        />
      </div>
      {problem && (
        <p id={problemId} className={fieldStyles.error} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
