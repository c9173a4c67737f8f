// What code outside the receipts module takes from it: downloads spend an open challenge.
export { voidChallenge } from './receipts.repository';
