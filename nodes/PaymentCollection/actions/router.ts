import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeToOperation, type OperationTable } from '../../shared/runner/router';
import * as channel from './channel/Channel.resource';
import * as transaction from './transaction/Transaction.resource';

/** The node's first version with a run's summary (Reconcile, Check Only) on an output of its own. */
export const SUMMARY_OUTPUT_FROM = 2;

const operations: OperationTable = {
	transaction: {
		generate: transaction.generate,
		get: transaction.get,
		reconcile: transaction.reconcile,
		waitForFinalStatus: transaction.waitForFinalStatus,
	},
	channel: { getMany: channel.getMany },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeToOperation(this, operations);
}
