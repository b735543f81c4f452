package io.ferry.source;

import io.ferry.config.SourceConfig;
import io.ferry.plan.SourceObject;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists the source with ListObjectsV2 pages (1,000 keys each) and hands each selected object to a consumer as the
 * page arrives, so no listing is held whole beyond what the consumer keeps. Keys ending in '/' with no bytes are
 * folder markers, not objects: they are counted and left out.
 */
public final class S3Lister {
  /** What the listing saw beyond the objects it passed on. */
  public record Counts(long listed, long selected, long folderMarkers, long filteredOut, long pages) {}

  private final S3Client client;
  private final SourceConfig source;

  public S3Lister(S3Client client, SourceConfig source) {
    this.client = client;
    this.source = source;
  }

  public Counts list(Consumer<SourceObject> consumer) {
    List<Glob> include = source.include().stream().map(Glob::compile).toList();
    List<Glob> exclude = source.exclude().stream().map(Glob::compile).toList();
    long listed = 0, selected = 0, markers = 0, filtered = 0, pages = 0;
    ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(source.bucket()).prefix(source.prefix()).build();
    for (ListObjectsV2Response page : client.listObjectsV2Paginator(request)) {
      pages++;
      for (S3Object o : page.contents()) {
        listed++;
        String relative = o.key().substring(source.prefix().length());
        if (o.key().endsWith("/") && o.size() == 0) {
          markers++;
          continue;
        }
        if (!Glob.selected(relative, include, exclude)) {
          filtered++;
          continue;
        }
        selected++;
        consumer.accept(new SourceObject(o.key(), relative, o.size(), unquote(o.eTag()),
            o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
      }
    }
    return new Counts(listed, selected, markers, filtered, pages);
  }

  /** ETags compared and passed on without quotes: stores differ in whether they quote them. */
  public static String unquote(String etag) {
    if (etag == null) return "";
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
  }
}
