import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeToOperation, type OperationTable } from '../../shared/runner/router';
import * as authorization from './authorization/Authorization.resource';
import * as bank from './bank/Bank.resource';
import * as payout from './payout/Payout.resource';
import * as wallet from './wallet/Wallet.resource';

/** The node's first version with a run's summary (Reconcile, Check Only) on an output of its own. */
export const SUMMARY_OUTPUT_FROM = 3;

const operations: OperationTable = {
	payout: {
		confirm: payout.confirm,
		create: payout.create,
		prepare: payout.prepare,
		get: payout.get,
		reconcile: payout.reconcile,
		repost: payout.repost,
		waitForFinalStatus: payout.waitForFinalStatus,
	},
	wallet: { getMany: wallet.getMany, getTransactions: wallet.getTransactions },
	bank: { getMany: bank.getMany },
	authorization: { get: authorization.get },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeToOperation(this, operations);
}
