-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "redeliveryOf" TEXT;

