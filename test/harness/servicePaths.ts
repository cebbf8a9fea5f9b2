/**
 * The service's paths the tests call or count, written out from the interface rather than
 * imported from the nodes, so a wrong path in nodes/shared/transport/endpoints.ts fails a test.
 */

/** Disbursement: create a payout (POST). */
export const PAYOUT_PROCESS = '/v1/api/disbursement/transactions/process';
/** The sandbox's request-count key of a payout create. */
export const PAYOUT_PROCESS_KEY = `POST ${PAYOUT_PROCESS}`;
/** Disbursement: look payouts up by reference (GET). */
export const PAYOUT_LOOKUP = '/v1/api/disbursement/transactions';
