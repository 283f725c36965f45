import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { OnboardingRepository } from '@platform/database';
import { OnboardingController } from './onboarding.controller.js';
import { OnboardingService } from './onboarding.service.js';

// The repository is provided here, not by the global DatabaseModule: only this module reads it.
@Module({ imports: [AuthModule], controllers: [OnboardingController], providers: [OnboardingService, OnboardingRepository] })
export class OnboardingModule {}
