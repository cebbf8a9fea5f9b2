import { getBanks, getPayoutChannels } from './loadOptions';

export const loadOptions = { getBanks, getPayoutChannels };
