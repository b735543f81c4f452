package io.ferry;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the product, checked on its bytecode: packages depend one way (config → store → plan → copy → commit →
 * ledger → report, the Spark wiring on top), the pipeline sees stores only through their interfaces, and Spark, the AWS SDK
 * and Hadoop stay in the packages whose job they are. The tests' side has a shape too: the lab (the demo and the
 * benchmarks, src/lab/java) uses the tests' shared helpers (support) and nothing imports the lab.
 */
class ArchitectureTest {
  private static final String[] LAB = {"io.ferry.bench..", "io.ferry.demo.."};
  private static JavaClasses product;
  private static JavaClasses everything;

  @BeforeAll
  static void importProduct() {
    product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ferry");
    everything = new ClassFileImporter().importPackages("io.ferry");
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("io.ferry.(**)").should().beFreeOfCycles().check(product);
  }

  @Test
  void layersDependOneWay() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("cli").definedBy("io.ferry")
        .layer("spark").definedBy("io.ferry.spark..")
        .layer("report").definedBy("io.ferry.report..")
        .layer("ledger").definedBy("io.ferry.ledger..")
        .layer("commit").definedBy("io.ferry.commit..")
        .layer("copy").definedBy("io.ferry.copy..")
        .layer("verify").definedBy("io.ferry.verify..")
        .layer("plan").definedBy("io.ferry.plan..")
        .layer("manifest").definedBy("io.ferry.manifest..")
        .layer("changes").definedBy("io.ferry.changes..")
        .layer("store kinds").definedBy("io.ferry.store.s3..", "io.ferry.store.file..")
        .layer("store").definedBy("io.ferry.store", "io.ferry.store.retry..", "io.ferry.store.limits..", "io.ferry.store.listing..",
            "io.ferry.store.checksums..")
        .layer("config").definedBy("io.ferry.config..")
        .whereLayer("cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("spark").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("report").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("ledger").mayOnlyBeAccessedByLayers("report", "spark", "cli")
        .whereLayer("commit").mayOnlyBeAccessedByLayers("ledger", "report", "spark", "cli")
        .whereLayer("copy").mayOnlyBeAccessedByLayers("commit", "ledger", "report", "spark", "cli")
        .whereLayer("verify").mayOnlyBeAccessedByLayers("report", "spark", "cli")
        .whereLayer("manifest").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("changes").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("plan").mayOnlyBeAccessedByLayers("copy", "verify", "commit", "ledger", "report", "spark", "cli")
        .whereLayer("store kinds").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("store").mayOnlyBeAccessedByLayers("store kinds", "manifest", "changes", "plan", "copy", "verify", "commit",
        "ledger", "report", "spark", "cli")
        .check(product);
  }

  @Test
  void sparkAndScalaOnlyInTheSparkWiring() {
    noClasses().that().resideOutsideOfPackage("io.ferry.spark..")
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "scala..")
        .check(product);
  }

  @Test
  void theAwsSdkAndItsHttpClientOnlyInTheS3Store() {
    noClasses().that().resideOutsideOfPackage("io.ferry.store.s3..")
        .should().dependOnClassesThat().resideInAnyPackage("software.amazon.awssdk..", "org.apache.http..")
        .check(product);
  }

  @Test
  void hadoopAndParquetOnlyWhereReportsAndTheLedgerAreWrittenAndManifestsRead() {
    noClasses().that().resideOutsideOfPackages("io.ferry.ledger..", "io.ferry.report..", "io.ferry.manifest..", "io.ferry.spark..")
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.hadoop..", "org.apache.parquet..")
        .check(product);
  }

  @Test
  void theCopyWritesThroughUploadsOnly() {
    noClasses().that().resideInAPackage("io.ferry.copy..")
        .should().dependOnClassesThat().haveFullyQualifiedName("io.ferry.store.Destination")
        .because("the copy opens, writes and completes; planning and removals are the driver's").check(product);
  }

  @Test
  void nothingImportsTheLab() {
    noClasses().that().resideOutsideOfPackages(LAB).should().dependOnClassesThat().resideInAnyPackage(LAB).check(everything);
  }

  @Test
  void theSharedHelpersUseNoTestAndNoSuite() {
    noClasses().that().resideInAPackage("io.ferry.support..").and().haveSimpleNameNotEndingWith("Test")
        .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.ferry..")
            .and(JavaClass.Predicates.simpleNameEndingWith("IT").or(JavaClass.Predicates.simpleNameEndingWith("Test"))))
        .orShould().dependOnClassesThat().resideInAPackage("io.ferry.invariants..")
        .check(everything);
  }

  @Test
  void theLabLivesInItsOwnSourceSetAndOnlyThere() throws java.io.IOException {
    java.nio.file.Path lab = java.nio.file.Path.of("src/lab/java/io/ferry");
    try (var files = java.nio.file.Files.walk(lab)) {
      assertThat(files.filter(f -> f.toString().endsWith(".java")).map(f -> lab.relativize(f).getName(0).toString()).distinct())
          .as("packages under src/lab/java").containsExactlyInAnyOrder("bench", "demo");
    }
    for (String pkg : new String[] {"bench", "demo"}) {
      assertThat(java.nio.file.Path.of("src/test/java/io/ferry", pkg)).as("the lab's package in src/test/java").doesNotExist();
    }
  }
}
