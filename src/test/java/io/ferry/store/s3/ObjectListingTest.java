package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.StoreFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ObjectListingTest {
  private static ObjectListing.Page parse(String xml) throws IOException {
    return ObjectListing.parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  private static final String ENCODED = """
      <?xml version="1.0" encoding="UTF-8"?>
      <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
        <Name>b</Name><Prefix>data%2F</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>%2F</Delimiter>
        <EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>
        <Contents>
          <Key>data/a+b%2Bc%20d%C3%A9</Key><LastModified>2026-12-04T22:15:12.345Z</LastModified>
          <ETag>&quot;0123abcd&quot;</ETag><Size>65536</Size>
          <Owner><ID>x</ID><DisplayName>Key</DisplayName></Owner><StorageClass>GLACIER</StorageClass>
        </Contents>
        <Contents><Key>data/%3CKey%3E%26</Key><LastModified>2026-12-04T22:15:13Z</LastModified><ETag>"e-2"</ETag><Size>0</Size>
        </Contents>
        <CommonPrefixes><Prefix>data/sub%20dir/</Prefix></CommonPrefixes>
        <CommonPrefixes><Prefix>data/x%2By/</Prefix></CommonPrefixes>
        <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
      </ListBucketResult>
      """;

  @Test
  void aUrlEncodedPageGivesItsKeysDecodedItsFoldersAndTheTokenAsItCame() throws IOException {
    ObjectListing.Page page = parse(ENCODED);
    assertThat(page.entries()).containsExactly(
        new ObjectListing.Entry("data/a b+c dé", Instant.parse("2026-12-04T22:15:12.345Z").toEpochMilli(), "0123abcd", 65536, "GLACIER"),
        new ObjectListing.Entry("data/<Key>&", Instant.parse("2026-12-04T22:15:13Z").toEpochMilli(), "e-2", 0, null));
    assertThat(page.prefixes()).containsExactly("data/sub dir/", "data/x+y/");
    assertThat(page.truncated()).isTrue();
    // the token is opaque: never decoded ('+' and '/' stay)
    assertThat(page.nextToken()).isEqualTo("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
  }

  @Test
  void aStoreThatIgnoresTheEncodingGivesItsKeysAsTheyAreAndTheLastPageNoToken() throws IOException {
    ObjectListing.Page page = parse("""
        <ListBucketResult><IsTruncated>false</IsTruncated>
          <Contents><Key>a+b %41</Key><Size>3</Size><ETag>"x"</ETag><LastModified>2026-01-01T00:00:00.000Z</LastModified></Contents>
          <NextContinuationToken>ignored</NextContinuationToken>
        </ListBucketResult>""");
    assertThat(page.entries()).extracting(ObjectListing.Entry::key).containsExactly("a+b %41");
    assertThat(page.truncated()).isFalse();
    assertThat(page.nextToken()).isNull();
    assertThat(parse("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>").entries()).isEmpty();
  }

  @Test
  void aTruncatedPageWithoutATokenOrAnObjectWithoutAKeyIsAnErrorNotAShortListing() {
    assertThatThrownBy(() -> parse("<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>a</Key><Size>1</Size></Contents>"
        + "</ListBucketResult>")).isInstanceOf(StoreFailure.class).hasMessageContaining("without NextContinuationToken");
    assertThatThrownBy(() -> parse("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>"))
        .hasMessageContaining("an object without a Key");
    assertThatThrownBy(() -> parse("<ListBucketResult><Contents><Key>a</Key>")).hasMessageContaining("could not be read");
    assertThatThrownBy(() -> parse("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><ListBucketResult><Contents><Key>&e;"
        + "</Key></Contents></ListBucketResult>")).isInstanceOf(IOException.class);
  }

  @Test
  void anAnswerThatIsNoListingIsAnErrorNeverAnEmptyLastPage() {
    // S3 may answer 200 with an error body: retried as the error it is
    assertThatThrownBy(() -> parse("<?xml version=\"1.0\"?><Error><Code>InternalError</Code><Message>We encountered an internal"
        + " error.</Message></Error>")).isInstanceOf(StoreFailure.class).hasMessageContaining("InternalError")
        .satisfies(e -> assertThat(((StoreFailure) e).kind()).isNotEqualTo(StoreFailure.Kind.FATAL));
    assertThatThrownBy(() -> parse("<html><body>proxy login</body></html>")).hasMessageContaining("with <html>, not a listing");
    assertThatThrownBy(() -> parse("<ListAllMyBucketsResult></ListAllMyBucketsResult>")).hasMessageContaining("not a listing");
  }

  @Test
  void anObjectWithoutASizeOrAnEntryClosedInsideAnotherIsNotReadAsZeroBytes() throws IOException {
    assertThatThrownBy(() -> parse("<ListBucketResult><Contents><Key>a/</Key></Contents></ListBucketResult>"))
        .hasMessageContaining("without a Size: a/");
    // a <Contents> inside an unknown child does not close the object early
    ObjectListing.Page page = parse("<ListBucketResult><Contents><Key>a</Key><X><Contents>y</Contents></X><Size>7</Size>"
        + "<LastModified>2026-01-01T00:00:00.000+0000</LastModified></Contents></ListBucketResult>");
    assertThat(page.entries()).containsExactly(new ObjectListing.Entry("a", Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), "", 7,
        null));
  }

  @Test
  void keysDecodeStrictlyAndAKeyOrFolderOutsideThePrefixFailsTheListing() throws IOException {
    assertThat(ObjectListing.decode("a+b%2Bc%F0%9F%98%80d\u00e9")).isEqualTo("a b+c\uD83D\uDE00d\u00e9");
    assertThatThrownBy(() -> ObjectListing.decode("a%FFb")).hasMessageContaining("not UTF-8");
    assertThatThrownBy(() -> ObjectListing.decode("a%E2%82")).hasMessageContaining("not UTF-8");
    assertThatThrownBy(() -> ObjectListing.decode("a%4")).hasMessageContaining("two hex digits");
    assertThatThrownBy(() -> parse(ENCODED.replace("data/%3CKey%3E%26", "data/%FF"))).isInstanceOf(StoreFailure.class)
        .hasMessageContaining("not URL-encoded as it says");
    ObjectListing.Page page = parse(ENCODED);
    assertThat(page.under("data/", true)).isSameAs(page);
    // a store that encoded without saying so: "my%20photos/a" is not under "my photos/"
    String unsaid = "<ListBucketResult><Contents><Key>my%20photos/a</Key><Size>1</Size></Contents></ListBucketResult>";
    assertThatThrownBy(() -> parse(unsaid).under("my photos/", false)).isInstanceOf(StoreFailure.class)
        .hasMessageContaining("the key 'my%20photos/a', which is not under it");
    org.assertj.core.api.Assertions.assertThatCode(() -> parse(ENCODED).under("data/", false)).doesNotThrowAnyException();
    assertThatThrownBy(() -> page.under("data/sub", false)).hasMessageContaining("the key 'data/a b+c dé'");
  }
}
