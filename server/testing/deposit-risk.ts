/**
 * For suites about the deposit flows rather than their risk checks (decision 0058): their many accounts
 * all pay with the sandbox's one test card, from one address, and decline on purpose; the checks would
 * refuse them as a card-testing run. The risk suites use the defaults or set their own.
 */
export const RISK_CHECKS_ROOMY = { KOUNT_RISK_THRESHOLD: '101', DEPOSITS_PER_CARD_PER_DAY: '100000', DEPOSITS_PER_ADDRESS_PER_DAY: '1000000' } as const;
