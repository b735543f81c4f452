package io.ferry.store;

import java.io.Serializable;

/**
 * What a listing saw.
 *
 * @param listed every entry under the prefix
 * @param selected objects passed on
 * @param folderMarkers keys ending in '/' with no bytes: folders, not objects
 * @param filteredOut objects the job's filters left out
 * @param pages list requests sent (0 for a directory)
 */
public record ListCounts(long listed, long selected, long folderMarkers, long filteredOut, long pages) implements Serializable {
  public static final ListCounts NONE = new ListCounts(0, 0, 0, 0, 0);

  public ListCounts plus(ListCounts o) {
    return new ListCounts(listed + o.listed, selected + o.selected, folderMarkers + o.folderMarkers, filteredOut + o.filteredOut,
        pages + o.pages);
  }
}
