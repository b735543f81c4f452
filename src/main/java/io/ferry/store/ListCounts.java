package io.ferry.store;

/**
 * What a listing saw.
 *
 * @param listed every entry under the prefix
 * @param selected objects passed on
 * @param folderMarkers keys ending in '/' with no bytes: folders, not objects
 * @param filteredOut objects the job's filters left out
 * @param pages list requests sent (0 for a directory)
 */
public record ListCounts(long listed, long selected, long folderMarkers, long filteredOut, long pages) {}
