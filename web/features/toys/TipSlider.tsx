/** The device tip's slider (spec part 2 §5, §9): 10–2000 coins in steps of 5, with the amount shown. */
import { useId } from 'react';
import { TOY } from '../../../common/constants';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import styles from './toys.module.css';

export function TipSlider({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <div className={styles.slider}>
      <div className={styles.sliderHead}>
        <label htmlFor={id}>{label}</label>
        <output htmlFor={id}>{formatCoins(value)}</output>
      </div>
      <input id={id} type="range" min={TOY.tip.min} max={TOY.tip.max} step={TOY.tip.step} value={value} onChange={(event) => onChange(Number(event.target.value))} />
    </div>
  );
}
