import { describe, expect, it } from 'vitest';
import { commandsOfToy, deviceTip, levelInRange, offeredCommands, selectCommand, TOY_CATALOGUE } from './toys';

describe('the device tip', () => {
  it('defaults to 10, rounds to a multiple of 5 and clamps to 10–2000', () => {
    expect(deviceTip(undefined)).toBe(10);
    expect(deviceTip(Number.NaN)).toBe(10);
    expect(deviceTip(0)).toBe(10);
    expect(deviceTip(12)).toBe(10);
    expect(deviceTip(13)).toBe(15);
    expect(deviceTip(50)).toBe(50);
    expect(deviceTip(1999)).toBe(2000);
    expect(deviceTip(99_999)).toBe(2000);
  });
});

describe('the toy commands', () => {
  it('has about 26 toys, mostly vibrating', () => {
    const toys = Object.keys(TOY_CATALOGUE);
    expect(toys.length).toBeGreaterThanOrEqual(26);
    expect(toys.filter((toy) => TOY_CATALOGUE[toy]!.includes('Vibrate')).length).toBeGreaterThan(toys.length / 2);
  });

  it("offers the union of the toys' commands, an unknown toy vibrating, nothing without toys", () => {
    expect(offeredCommands([])).toEqual([]);
    expect(offeredCommands([{ name: 'Lush' }])).toEqual(['Vibrate']);
    expect(offeredCommands([{ name: 'max' }, { name: 'solace pro' }])).toEqual(['Vibrate', 'Pump', 'Stroke', 'Position']);
    expect(commandsOfToy('some new toy')).toEqual(['Vibrate']);
  });

  it('checks levels against the ranges: Vibrate 0–20, Pump and Depth 0–3, Stroke and Position 0–100', () => {
    expect(levelInRange('Vibrate', 20)).toBe(true);
    expect(levelInRange('Vibrate', 21)).toBe(false);
    expect(levelInRange('Pump', 3)).toBe(true);
    expect(levelInRange('Depth', 4)).toBe(false);
    expect(levelInRange('Stroke', 100)).toBe(true);
    expect(levelInRange('Position', -1)).toBe(false);
    expect(levelInRange('Vibrate', 2.5)).toBe(false);
  });

  it('resets the selector to Vibrate at 0 when the toys stop offering the command', () => {
    expect(selectCommand({ command: 'Pump', level: 2 }, ['Vibrate', 'Pump'])).toEqual({ command: 'Pump', level: 2 });
    expect(selectCommand({ command: 'Pump', level: 2 }, ['Vibrate'])).toEqual({ command: 'Vibrate', level: 0 });
    expect(selectCommand({ command: 'Vibrate', level: 30 }, ['Vibrate'])).toEqual({ command: 'Vibrate', level: 20 });
  });
});
