/** A voicemail greeting as services see it; the audio travels separately (it can be large). */
export interface Greeting {
  /** Decimal string (bigint). */
  id: string;
  partnerId: string;
  customerId: string;
  name: string;
  /** Six digits; reserved for this greeting only while it waits for its recording. */
  recordPin: string;
  /** Bytes of the recording; null until recorded. */
  datalength: number | null;
  created: Date;
  recorded: Date | null;
}

export interface GreetingWithSound extends Greeting {
  /** Null until recorded. */
  sounddata: Buffer | null;
}

/** Something that uses a greeting and so keeps it from being deleted. */
export interface GreetingUser {
  id: string;
  name: string;
}

/** Who uses one greeting. Only sources appear in `used_by` (seed); campaigns lock it as well. */
export interface GreetingUsage {
  sources: GreetingUser[];
  campaigns: GreetingUser[];
}
