import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ItemHandler } from '../../shared/itemRunner';
import { routeToOperation, type OperationTable } from '../../shared/router';
import * as channel from './channel/Channel.resource';
import * as transaction from './transaction/Transaction.resource';

type ThisStyleOperation = (this: IExecuteFunctions, itemIndex: number) => ReturnType<ItemHandler>;
const withContext =
	(operation: ThisStyleOperation): ItemHandler =>
	async (ctx, itemIndex) =>
		await operation.call(ctx, itemIndex);

const operations: OperationTable = {
	transaction: {
		generate: transaction.generate.execute,
		get: transaction.get.execute,
	},
	channel: {
		getMany: withContext(channel.getMany.execute),
	},
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeToOperation(this, operations);
}
