package io.ferry;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the product, checked on its bytecode: packages depend one way (config → store → plan → copy → commit →
 * ledger → report, the Spark wiring on top), the pipeline sees stores only through their interfaces, and Spark, the AWS SDK
 * and Hadoop stay in the packages whose job they are.
 */
class ArchitectureTest {
  private static JavaClasses product;

  @BeforeAll
  static void importProduct() {
    product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ferry");
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
        .layer("store kinds").definedBy("io.ferry.store.s3..", "io.ferry.store.file..")
        .layer("store").definedBy("io.ferry.store")
        .layer("config").definedBy("io.ferry.config..")
        .whereLayer("cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("spark").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("report").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("ledger").mayOnlyBeAccessedByLayers("report", "spark", "cli")
        .whereLayer("commit").mayOnlyBeAccessedByLayers("ledger", "report", "spark", "cli")
        .whereLayer("copy").mayOnlyBeAccessedByLayers("commit", "ledger", "report", "spark", "cli")
        .whereLayer("verify").mayOnlyBeAccessedByLayers("report", "spark", "cli")
        .whereLayer("manifest").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("plan").mayOnlyBeAccessedByLayers("copy", "verify", "commit", "ledger", "report", "spark", "cli")
        .whereLayer("store kinds").mayOnlyBeAccessedByLayers("spark", "cli")
        .whereLayer("store").mayOnlyBeAccessedByLayers("store kinds", "manifest", "plan", "copy", "verify", "commit", "ledger", "report", "spark", "cli")
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
}
