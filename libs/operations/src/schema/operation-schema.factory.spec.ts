import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDateString, IsEmail, IsEnum, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { OperationSchemaFactory } from './operation-schema.factory';

enum Color { Red = 'red', Green = 'green' }
enum Priority { Low = 1, High = 2 }

class Product {
  @IsUUID() id: string;
  @IsString() @MinLength(2) @MaxLength(10) name: string;
}
class Line {
  @ValidateNested() @Type(() => Product) product: Product;
  @IsInt() @Min(1) @Max(99) quantity: number;
}
class Address {
  @IsString() street: string;
  @IsOptional() @IsString() zip?: string;
}
class Order {
  @ValidateNested() @Type(() => Address) address: Address;
  @ValidateNested({ each: true }) @Type(() => Line) @IsArray() lines: Line[];
  @IsEnum(Color) color: Color;
  @IsEnum(Priority) priority: Priority;
  @IsEmail() email: string;
  @IsDateString() due: string;
  @IsBoolean() gift: boolean;
  @Min(0) @IsInt() reverse: number;
}
it('dump', () => {
  console.log(JSON.stringify(new OperationSchemaFactory().create(Order), null, 1));
});
