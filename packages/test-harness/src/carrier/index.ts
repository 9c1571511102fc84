export {
  TwilioNumbersSimulator,
  type AvailableStock,
  type AvailableNumber,
  type OwnedNumber,
  type RecordedCarrierRequest,
} from './twilio-numbers-simulator';
