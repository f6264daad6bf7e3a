/**
 * Toy-device access rules shared by the server and the web (spec part 2 §3 Toy catalogue, §4, §5, §9):
 * the device tip, the commands each toy offers with their ranges, and the command selector's reset.
 */
import type { ToyAccess } from '../api/toys';
import { TOY } from '../constants';

/** Access a viewer holds or is being offered: one viewer per room at a time. */
export const OPEN_TOY_ACCESS: readonly ToyAccess[] = ['INIT', 'PENDING', 'APPROVED'];

/** Every command a toy can take, with its range (spec part 2 §3: mostly Vibrate 0–20; Pump and Depth 0–3; Stroke and Position 0–100). */
export const TOY_COMMANDS = {
  Vibrate: { min: 0, max: 20 },
  Rotate: { min: 0, max: 20 },
  Pump: { min: 0, max: 3 },
  Thrusting: { min: 0, max: 20 },
  Fingering: { min: 0, max: 20 },
  Suction: { min: 0, max: 20 },
  Depth: { min: 0, max: 3 },
  Oscillate: { min: 0, max: 20 },
  Stroke: { min: 0, max: 100 },
  Position: { min: 0, max: 100 },
} as const;
export type ToyCommand = keyof typeof TOY_COMMANDS;
export const TOY_COMMAND_NAMES = Object.keys(TOY_COMMANDS) as ToyCommand[];

/** The default command: Vibrate, at 0 (spec part 2 §4). */
export const DEFAULT_COMMAND: { command: ToyCommand; level: number } = { command: 'Vibrate', level: 0 };

/**
 * The toy catalogue: each toy type (Lovense's `name`, lower case) and the commands it offers. A toy
 * of a type not listed vibrates.
 */
export const TOY_CATALOGUE: Readonly<Record<string, readonly ToyCommand[]>> = {
  lush: ['Vibrate'],
  'lush mini': ['Vibrate'],
  hush: ['Vibrate'],
  ambi: ['Vibrate'],
  edge: ['Vibrate'],
  domi: ['Vibrate'],
  osci: ['Vibrate', 'Oscillate'],
  nora: ['Vibrate', 'Rotate'],
  max: ['Vibrate', 'Pump'],
  diamo: ['Vibrate'],
  dolce: ['Vibrate'],
  ferri: ['Vibrate'],
  gush: ['Vibrate'],
  hyphy: ['Vibrate'],
  exomoon: ['Vibrate'],
  flexer: ['Vibrate', 'Fingering'],
  gravity: ['Vibrate', 'Thrusting'],
  lapis: ['Vibrate'],
  calor: ['Vibrate'],
  ridge: ['Vibrate', 'Rotate'],
  gemini: ['Vibrate'],
  vulse: ['Vibrate'],
  mission: ['Vibrate'],
  tenera: ['Suction'],
  solace: ['Thrusting', 'Depth'],
  'solace pro': ['Stroke', 'Position'],
  xmachine: ['Thrusting'],
};

/** The commands a toy of this type offers. */
export const commandsOfToy = (type: string): readonly ToyCommand[] => TOY_CATALOGUE[type.trim().toLowerCase()] ?? ['Vibrate'];

/** The commands the connected toys offer together, in TOY_COMMANDS order; none without toys. */
export function offeredCommands(toys: ReadonlyArray<{ name: string }>): ToyCommand[] {
  const offered = new Set(toys.flatMap((toy) => commandsOfToy(toy.name)));
  return TOY_COMMAND_NAMES.filter((command) => offered.has(command));
}

export const isToyCommand = (value: string): value is ToyCommand => Object.hasOwn(TOY_COMMANDS, value);

/** Whether `level` is a whole number inside the command's range. */
export function levelInRange(command: ToyCommand, level: number): boolean {
  const { min, max } = TOY_COMMANDS[command];
  return Number.isInteger(level) && level >= min && level <= max;
}

/**
 * The control panel's selector after the toys changed: the current command if the toys still offer
 * it (its level clamped to the range), else Vibrate at 0 (spec part 2 §4).
 */
export function selectCommand(current: { command: ToyCommand; level: number }, offered: readonly ToyCommand[]): { command: ToyCommand; level: number } {
  if (!offered.includes(current.command)) return { ...DEFAULT_COMMAND };
  const { min, max } = TOY_COMMANDS[current.command];
  return { command: current.command, level: Math.min(max, Math.max(min, Math.round(current.level))) };
}

/**
 * The device tip (spec part 2 §5): rounded to a multiple of 5 and clamped to 10–2000; nothing given (or
 * not a number) is the default 10.
 */
export function deviceTip(amount: number | null | undefined): number {
  const { min, max, step, default: fallback } = TOY.tip;
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return fallback;
  const rounded = Math.round(amount / step) * step;
  return Math.min(max, Math.max(min, rounded));
}
