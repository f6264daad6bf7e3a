import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';
import styles from './Tabs.module.css';

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
  content: ReactNode;
}

interface TabsProps<V extends string> {
  label: string;
  value: V;
  onValueChange: (value: V) => void;
  tabs: ReadonlyArray<TabItem<V>>;
  /** Tabs that do not fit go on to a second row instead of scrolling sideways (many tabs, all worth seeing). */
  wrap?: boolean;
}

/** Underlined tabs (Radix: arrow keys move between tabs, the panel is labelled by its tab). */
export function Tabs<V extends string>({ label, value, onValueChange, tabs, wrap = false }: TabsProps<V>) {
  return (
    <RadixTabs.Root value={value} onValueChange={(v) => onValueChange(v as V)} className={styles.root}>
      <RadixTabs.List aria-label={label} className={wrap ? `${styles.list} ${styles.wrap}` : styles.list}>
        {tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.value} value={tab.value} className={styles.trigger}>
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.value} value={tab.value} className={styles.panel}>
          {tab.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
