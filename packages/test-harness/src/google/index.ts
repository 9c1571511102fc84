export { Ga4Simulator, type Ga4Stream, type Ga4Hit, type Ga4CollectedEvent } from './ga4-simulator';
export { validateGa4Body, type Ga4ValidationMessage } from './ga4-validation';
export {
  GoogleAdsSimulator,
  type GoogleAdsAccount,
  type AcceptedConversion,
  type ConversionUpload,
} from './google-ads-simulator';
export { OAuthTokenEndpoint, type OAuthGrant } from './oauth-token-endpoint';
