import { phraseWords } from './classification-rules';
import { transcriptWords } from './transcript-words';

/** Words a phrase may skip between two of its words ("still available" in "still be available"). */
export const MAX_GAP_WORDS = 2;

/** A transcript's word with its time in the call (seconds from the answer) and the side that said it. */
export interface SpokenWord {
  text: string;
  folded: string;
  at: number;
  channel: string | undefined;
}

export interface SpokenSegment {
  start: number;
  end: number;
  text: string;
  channel?: string;
}

/**
 * The words of the segments, each timed by its place in its segment (engines time segments, not
 * words). One object per word, of one shape: a 30-minute call has thousands.
 */
export function spokenWords(segments: readonly SpokenSegment[]): SpokenWord[] {
  const words: SpokenWord[] = [];
  for (const segment of segments) {
    const perCharacter = Math.max(segment.end - segment.start, 0) / Math.max(segment.text.length, 1);
    for (const word of transcriptWords(segment.text))
      words.push({
        text: word.text,
        folded: word.folded,
        at: Math.round((segment.start + perCharacter * word.start) * 10) / 10,
        channel: segment.channel,
      });
  }
  return words;
}

/** Where a phrase was said: the words from its first to its last (gaps included) and when. */
export interface PhraseMatch {
  phrase: string;
  matched: string;
  at: number;
  channel?: string;
}

/**
 * Looks phrases up in one transcript. The words are indexed once, so each phrase costs only the
 * places its first word occurs: a 30-minute call against hundreds of phrases stays well under a
 * millisecond per phrase (docs/benchmarks.md, Call intelligence).
 */
export class PhraseFinder {
  private readonly positions = new Map<string, number[]>();

  constructor(private readonly words: readonly SpokenWord[]) {
    words.forEach((word, i) => {
      const list = this.positions.get(word.folded);
      if (list === undefined) this.positions.set(word.folded, [i]);
      else list.push(i);
    });
  }

  /** The first place the phrase was said, undefined when it was not. */
  find(phrase: string): PhraseMatch | undefined {
    const wanted = phraseWords(phrase);
    if (wanted.length === 0) return undefined;
    for (const from of this.startsOf(wanted[0]!)) {
      const to = this.rest(wanted, from);
      if (to === undefined) continue;
      const first = this.words[from]!;
      return {
        phrase,
        matched: this.words
          .slice(from, to + 1)
          .map((word) => word.text)
          .join(' '),
        at: first.at,
        ...(first.channel === undefined ? {} : { channel: first.channel }),
      };
    }
    return undefined;
  }

  private startsOf(word: string): number[] {
    if (!word.endsWith('*')) return this.positions.get(word) ?? [];
    const stem = word.slice(0, -1);
    const starts: number[] = [];
    for (const [folded, list] of this.positions) if (folded.startsWith(stem)) starts.push(...list);
    return starts.sort((a, b) => a - b);
  }

  /** The index of the phrase's last word when the words after `from` follow it within the gap. */
  private rest(wanted: readonly string[], from: number): number | undefined {
    let at = from;
    for (const word of wanted.slice(1)) {
      let next: number | undefined;
      for (let i = at + 1; i <= at + 1 + MAX_GAP_WORDS && i < this.words.length; i++) {
        if (wordMatches(word, this.words[i]!.folded)) {
          next = i;
          break;
        }
      }
      if (next === undefined) return undefined;
      at = next;
    }
    return at;
  }
}

function wordMatches(wanted: string, folded: string): boolean {
  return wanted.endsWith('*') ? folded.startsWith(wanted.slice(0, -1)) : wanted === folded;
}
