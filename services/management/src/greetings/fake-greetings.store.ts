import type { Greeting, GreetingWithSound } from './greeting';
import type { GreetingsStore, NewGreeting } from './greetings.store';

/** In-memory GreetingsStore for unit tests; reserves PINs of unrecorded greetings like the partial index. */
export class FakeGreetingsStore implements GreetingsStore {
  private readonly greetings: GreetingWithSound[] = [];
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async list(partnerId: string, customerId: string): Promise<Greeting[]> {
    return this.greetings
      .filter((greeting) => greeting.partnerId === partnerId && greeting.customerId === customerId)
      .map(withoutSound);
  }

  async findById(
    partnerId: string,
    customerId: string,
    id: string,
    options: { withSound?: boolean } = {},
  ): Promise<GreetingWithSound | null> {
    const greeting = this.greetings.find(
      (candidate) =>
        candidate.partnerId === partnerId && candidate.customerId === customerId && candidate.id === id,
    );
    if (greeting === undefined) return null;
    return { ...withoutSound(greeting), sounddata: options.withSound === true ? greeting.sounddata : null };
  }

  async insert(partnerId: string, greeting: NewGreeting): Promise<Greeting | null> {
    if (this.unrecordedWith(greeting.recordPin) !== undefined) return null;
    const stored: GreetingWithSound = {
      ...greeting,
      id: String(this.nextId++),
      partnerId,
      datalength: null,
      created: this.clock(),
      recorded: null,
      sounddata: null,
    };
    this.greetings.push(stored);
    return withoutSound(stored);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    const index = this.greetings.findIndex(
      (greeting) => greeting.partnerId === partnerId && greeting.id === id,
    );
    if (index >= 0) this.greetings.splice(index, 1);
  }

  async greetingBelongsToCustomer(
    partnerId: string,
    customerId: string,
    greetingId: string,
  ): Promise<boolean> {
    return this.greetings.some(
      (greeting) =>
        greeting.partnerId === partnerId && greeting.customerId === customerId && greeting.id === greetingId,
    );
  }

  async saveRecording(recordPin: string, sounddata: Buffer, now: Date): Promise<Greeting | null> {
    const greeting = this.unrecordedWith(recordPin);
    if (greeting === undefined) return null;
    Object.assign(greeting, {
      sounddata: Buffer.from(sounddata),
      datalength: sounddata.length,
      recorded: now,
    });
    return withoutSound(greeting);
  }

  async findWaiting(recordPin: string): Promise<Greeting | null> {
    const greeting = this.unrecordedWith(recordPin);
    return greeting === undefined ? null : withoutSound(greeting);
  }

  async findWithSound(id: string): Promise<GreetingWithSound | null> {
    const greeting = this.greetings.find((candidate) => candidate.id === id);
    return greeting === undefined ? null : { ...greeting };
  }

  private unrecordedWith(recordPin: string): GreetingWithSound | undefined {
    return this.greetings.find((greeting) => greeting.recordPin === recordPin && greeting.sounddata === null);
  }
}

function withoutSound(greeting: GreetingWithSound): Greeting {
  const { sounddata: _audio, ...rest } = greeting;
  return { ...rest };
}
