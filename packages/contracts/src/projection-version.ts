/**
 * Version of the layout of every projection management writes for replacement to read. A reader
 * that finds another version refuses the value (it cannot know what the fields mean) instead of
 * guessing; management bumps this when a projection's shape changes and rebuilds all projections.
 */
export const PROJECTION_VERSION = 1;
