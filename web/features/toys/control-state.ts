/**
 * The viewer's control panel: the command selector and its level (spec part 2 §4). Vibrate at 0 by
 * default; choosing another command starts it at its minimum; when the host's toys change and no
 * longer offer the current command, the panel resets to Vibrate at 0.
 */
import { DEFAULT_COMMAND, selectCommand, TOY_COMMANDS, type ToyCommand } from '../../../common/rules/toys';

export interface ControlState {
  command: ToyCommand;
  level: number;
}

export type ControlAction = { type: 'offered'; commands: readonly ToyCommand[] } | { type: 'choose'; command: ToyCommand } | { type: 'level'; level: number };

export const initialControl: ControlState = { ...DEFAULT_COMMAND };

export function controlReducer(state: ControlState, action: ControlAction): ControlState {
  switch (action.type) {
    case 'offered': {
      const next = selectCommand(state, action.commands);
      return next.command === state.command && next.level === state.level ? state : next;
    }
    case 'choose':
      return action.command === state.command ? state : { command: action.command, level: TOY_COMMANDS[action.command].min };
    case 'level': {
      const { min, max } = TOY_COMMANDS[state.command];
      return { ...state, level: Math.min(max, Math.max(min, Math.round(action.level))) };
    }
  }
}

/** The commands the selector lists: the toys' own, or Vibrate alone before they are known. */
export const selectorCommands = (offered: readonly ToyCommand[]): readonly ToyCommand[] => (offered.length > 0 ? offered : [DEFAULT_COMMAND.command]);
