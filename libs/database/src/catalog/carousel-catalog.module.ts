import { Module } from '@nestjs/common';
import { CarouselCatalog } from './carousel-catalog.js';

/** The in-memory catalog of bots' templates and senders, for the apps that send carousels (reads CatalogEnv). */
@Module({ providers: [CarouselCatalog], exports: [CarouselCatalog] })
export class CarouselCatalogModule {}
