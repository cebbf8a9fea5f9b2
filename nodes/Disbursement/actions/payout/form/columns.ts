/**
 * Payout > Create with "Map Input Columns Automatically": the columns a row supplies, taken from
 * the same field declarations as the form, so both modes check the same fields the same way.
 */
import type { INodeProperties } from 'n8n-workflow';

import { columnsNotice, mappingModeProperty } from '../../../../shared/descriptions/columnMapping';
import { columnName, type ColumnField } from '../../../../shared/runner/itemValues';
import { bankTransferMapping, eWalletMapping } from './channelFields';
import type { ChannelType, FieldMapping } from './mapping';

const show = { resource: ['payout'], operation: ['create'] };

const COMMON: ColumnField[] = [
	{ param: 'referenceNo', label: 'Reference No', required: true },
	{ param: 'amount', label: 'Amount', required: true },
	{ param: 'channel', label: 'Channel', orNodeField: true },
];

const asColumn = ({ param, label, required }: FieldMapping): ColumnField => ({ param, label, required });

export const PAYOUT_COLUMNS: Record<ChannelType, ColumnField[]> = {
	bankTransfer: [...COMMON, ...bankTransferMapping.map(asColumn)],
	eWallet: [...COMMON, ...eWalletMapping.map(asColumn)],
};

function listed(columns: ColumnField[]): string {
	const names = (required: boolean) =>
		columns.filter((column) => !column.orNodeField && !!column.required === required).map((column) => columnName(column.param));
	return `required: ${names(true).join(', ')}; optional: ${[...names(false), 'channel (when missing or empty, the Channel above)'].join(', ')}`;
}

export const payoutMappingProperties: INodeProperties[] = [
	mappingModeProperty(show, 'payout'),
	columnsNotice({ ...show, channelType: ['eWallet'] }, listed(PAYOUT_COLUMNS.eWallet), 'EWallet'),
	columnsNotice({ ...show, channelType: ['bankTransfer'] }, listed(PAYOUT_COLUMNS.bankTransfer), 'BankTransfer'),
];
